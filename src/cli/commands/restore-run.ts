// The work of `sanad restore` (restore.ts parses and answers at once, then loads this): the live
// data dir read-only for the repository and its passphrase, then the verified restore or the list.
import { existsSync } from 'node:fs';

import { createRestic, ResticError } from '../../repository/restic/index.js';
import { createLogger, levelFromEnv } from '../../log/logger.js';
import { openRepository, PassphraseNeededError, type RepositorySource } from '../../restore/open-repository.js';
import { restoreGeneration, shellQuote, type RestoreResult } from '../../restore/restore-generation.js';
import type { RestoreProgress } from '../../restore/restore-progress.js';
import { repositorySourceFor, UnknownRepositoryError } from '../../restore/restore-source.js';
import { openSecretStore } from '../../secrets/open-secret-store.js';
import { recordedSecretsFile } from '../../secrets/secrets-location.js';
import { RESTIC_PASSPHRASE, VAULT_KEY } from '../../secrets/secret-store.js';
import { Vault } from '../../secrets/vault.js';
import { openStore, type Db } from '../../store/open.js';
import { isStoreDamage, StoreDamagedError } from '../../store/store-check.js';
import { CliError } from '../cli-error.js';
import type { Io } from '../io.js';
import { readSecretFromStdin } from '../read-secret.js';
import { bringBackCommand } from './bring-back.js';
import { resticCacheDir, storePath } from '../../files/data-dir-layout.js';

export interface RestoreOptions {
  list: boolean;
  target?: string;
  generation?: number;
  repo: string;
  stdin: boolean;
  inPlace: boolean;
  keepClients: boolean;
  responses: string[];
  undelete: boolean;
}

function cliError(err: unknown): never {
  if (err instanceof ResticError || err instanceof PassphraseNeededError || err instanceof UnknownRepositoryError) throw new CliError(err.message);
  throw err;
}

export async function runRestore(opts: RestoreOptions, dataDir: string, io: Io, secretsFile: string | undefined): Promise<number> {
  if (opts.responses.length > 0 && opts.generation !== undefined)
    return bringBackCommand({ dataDir, io, secretsFile, generation: opts.generation, repo: opts.repo, ids: opts.responses, undelete: opts.undelete });
  const live = await openSecretStore(dataDir, secretsFile);
  if (!existsSync(storePath(dataDir))) {
    throw new CliError(
      `There is no Sanad data at ${dataDir}. On a new machine: run \`sanad serve\` once, add the repository with \`sanad repo add\`, then restore.`,
    );
  }
  const logger = createLogger({ level: levelFromEnv(process.env.SANAD_LOG ?? 'warn') });
  // Read-only: a restore never writes to the live data dir, even beside a running service. A
  // damaged store is what a restore is for: then the local repository is found without it.
  const db = openReadOnlyUnlessDamaged(dataDir);
  try {
    const key = await live.get(VAULT_KEY);
    const source = await repositorySourceFor({
      db,
      dataDir,
      repoName: opts.repo,
      vault: key && db ? vaultUnlessDamaged(db, key) : null,
      secretsDescription: live.description,
      knownPassphrase: await live.get(RESTIC_PASSPHRASE),
      knownVaultKey: key ? Buffer.from(key, 'base64') : null,
      askPassphrase: async () => {
        if (opts.stdin) return readSecretFromStdin('');
        if (!process.stdin.isTTY) return null;
        return readSecretFromStdin(`Passphrase of the repository "${opts.repo}" (from the recovery kit): `);
      },
      passphraseHint: 'pipe it in with --passphrase-stdin, or run this in a terminal to be asked',
    }).catch(cliError);
    if (opts.list) return await list(source, dataDir, io);
    return await restore(source, opts, dataDir, io, secretsFile, logger);
  } finally {
    db?.close();
  }
}

/** The vault, or null when the damaged store cannot even show its tables (only `local` is read then). */
function vaultUnlessDamaged(db: Db, key: string): Vault | null {
  try {
    return new Vault(db, Buffer.from(key, 'base64'));
  } catch (err) {
    if (isStoreDamage(err)) return null;
    throw err;
  }
}

function openReadOnlyUnlessDamaged(dataDir: string): Db | null {
  try {
    return openStore(storePath(dataDir), { readonly: true });
  } catch (err) {
    if (err instanceof StoreDamagedError) return null;
    throw err;
  }
}

async function list(source: RepositorySource, dataDir: string, io: Io): Promise<number> {
  const restic = createRestic({ binary: source.binary, cacheDir: resticCacheDir(dataDir) });
  const { generations } = await openRepository(restic, source).catch(cliError);
  const rows = generations.map((g) => ({ generation: g.generation, snapshot_id: g.snapshot_id, repo: g.repo, time: g.time, size_bytes: g.size_bytes }));
  io.result(rows, () =>
    rows.length === 0
      ? `The repository "${source.repoName}" holds no Sanad generation yet.`
      : [
          'generation  data from             snapshot  taken                           size',
          ...rows.map(
            (r) =>
              `${r.generation}  ${new Date(r.generation * 1000).toISOString().slice(0, 19)}Z  ${r.snapshot_id.slice(0, 8)}  ${r.time}  ${r.size_bytes ?? '-'}`,
          ),
        ].join('\n'),
  );
  return 0;
}

async function restore(
  source: RepositorySource,
  opts: RestoreOptions,
  dataDir: string,
  io: Io,
  secretsFile: string | undefined,
  logger: ReturnType<typeof createLogger>,
): Promise<number> {
  const abort = new AbortController();
  const onSigint = (): void => abort.abort();
  process.once('SIGINT', onSigint);
  let shown = '';
  const onProgress = (p: RestoreProgress): void => {
    if (io.json) return;
    const step = p.phase === 'restoring' ? `restoring ${Math.floor((p.percent ?? 0) * 10) * 10}%` : p.phase;
    if (step !== shown) io.note(`… ${step}`);
    shown = step;
  };
  let result: RestoreResult;
  try {
    result = await restoreGeneration({
      source,
      liveDataDir: dataDir,
      target: opts.target ?? '',
      modelsInPlace: opts.inPlace,
      keepClients: opts.keepClients,
      logger,
      onProgress,
      signal: abort.signal,
      ...(opts.generation !== undefined ? { generation: opts.generation } : {}),
      // Where the live data dir keeps its secrets, the restored one does too: a data dir `npm start`
      // set up on a machine with no keychain has them in a file, and its restore must not ask for one.
      secretsFor: (dir) => openSecretStore(dir, secretsFile ?? recordedSecretsFile(dataDir)),
    });
  } finally {
    process.off('SIGINT', onSigint);
  }
  const next = result.next_step && secretsFile ? `${result.next_step} --secrets-file ${shellQuote(secretsFile)}` : result.next_step;
  if (io.json) {
    io.out(
      JSON.stringify({
        generation: result.generation,
        target: result.target,
        checks: result.checks,
        ok: result.ok,
        snapshot_id: result.snapshot_id,
        repo: result.repo,
        next_step: next,
        error: result.error,
      }),
    );
  } else {
    io.note(result.checks.map((c) => `${c.ok ? '✓' : '✗'} ${c.name}: ${c.detail}`).join('\n'));
    io.note(
      result.ok ? `Restored generation ${result.generation ?? ''} into ${result.target}.\nNext: ${next ?? ''}` : `sanad: restore failed. ${result.error ?? ''}`,
    );
  }
  return result.ok ? 0 : 1;
}
