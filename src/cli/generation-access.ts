// Opening a generation of this data dir's repositories from the CLI, for `sanad generations` and
// `sanad restore --response`. Beside a running service the service does it (its cached copy, its
// job owner); otherwise the command holds the instance lock while it reads (so no service starts
// and sweeps the scratch folder away), with restic `--no-lock` and this data dir's passphrase.
import { createRestic, ResticError } from '../repository/restic/index.js';
import {
  GenerationNotSanadError,
  GenerationTooNewError,
  GenerationUnreadableError,
  openGenerationCopy,
  removeLeftoverHistoryScratch,
  type OpenedGeneration,
} from '../history/generation-copy.js';
import { openRepository, PassphraseNeededError } from '../restore/open-repository.js';
import { repositorySourceFor, UnknownRepositoryError } from '../restore/restore-source.js';
import { openSecretStore } from '../secrets/open-secret-store.js';
import { RESTIC_PASSPHRASE, VAULT_KEY } from '../secrets/secret-store.js';
import { Vault } from '../secrets/vault.js';
import type { Db } from '../store/open.js';
import { CliError } from './cli-error.js';
import { errorMessage } from './running-service.js';
import type { Io } from './io.js';
import { resticCacheDir } from '../files/data-dir-layout.js';

export function generationArg(raw: string | undefined, what = 'a generation'): number {
  if (raw === undefined) throw new CliError(`Name ${what} by its number (see \`sanad restore --list\`). Run \`sanad help\` for usage.`, 2);
  if (!/^[1-9][0-9]{0,11}$/.test(raw))
    throw new CliError(`"${raw}" is not a generation number; \`sanad restore --list\` shows them. Run \`sanad help\` for usage.`, 2);
  return Number(raw);
}

function asCliError(err: unknown): never {
  if (
    err instanceof ResticError ||
    err instanceof PassphraseNeededError ||
    err instanceof UnknownRepositoryError ||
    err instanceof GenerationTooNewError ||
    err instanceof GenerationUnreadableError ||
    err instanceof GenerationNotSanadError
  )
    throw new CliError(err.message);
  throw err;
}

/** Opens generation `generation` of `repo` here (the caller holds the instance lock), with progress on stderr. */
export async function openHere(input: {
  db: Db;
  dataDir: string;
  repo: string;
  generation: number;
  secretsFile: string | undefined;
  io: Io;
  signal?: AbortSignal;
}): Promise<OpenedGeneration> {
  const { db, dataDir, repo, generation, io } = input;
  const secrets = await openSecretStore(dataDir, input.secretsFile);
  const key = await secrets.get(VAULT_KEY);
  const source = await repositorySourceFor({
    db,
    dataDir,
    repoName: repo,
    vault: key ? new Vault(db, Buffer.from(key, 'base64')) : null,
    secretsDescription: secrets.description,
    knownPassphrase: await secrets.get(RESTIC_PASSPHRASE),
  }).catch(asCliError);
  await removeLeftoverHistoryScratch(dataDir);
  const restic = createRestic({ binary: source.binary, cacheDir: resticCacheDir(dataDir), noLock: true });
  const { repo: resticRepo, generations } = await openRepository(restic, source, input.signal).catch(asCliError);
  const g = generations.find((x) => x.generation === generation);
  if (!g) throw new CliError(`Generation ${generation} is not in the repository "${repo}"; \`sanad restore --list --repo ${repo}\` shows the ones there.`);
  let shown = '';
  return openGenerationCopy({
    restic,
    repo: resticRepo,
    g,
    dataDir,
    ...(input.signal ? { signal: input.signal } : {}),
    onProgress: (p) => {
      if (io.json) return;
      const step =
        p.phase === 'downloading' && p.bytes_total
          ? `reading generation ${generation} out of "${repo}" ${Math.floor(((p.bytes_done ?? 0) / Math.max(p.bytes_total, 1)) * 10) * 10}%`
          : p.phase === 'downloading'
            ? `reading generation ${generation} out of "${repo}"`
            : p.phase;
      if (step !== shown) io.note(`… ${step}`);
      shown = step;
    },
  }).catch(asCliError);
}

/** An answer of the running service's admin API as the CLI shows it: the body, or its error sentence. */
export function serviceBody(answer: { status: number; body: unknown }): unknown {
  if (answer.status < 300) return answer.body;
  throw new CliError(errorMessage(answer.body, `The running Sanad answered ${answer.status}; see its log.`));
}
