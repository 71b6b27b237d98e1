// `sanad repo add|list|remove|test`: offsite backup targets. Secrets come from stdin or a prompt,
// never argv, and go to the vault. With a service on the data dir, it is asked (it holds the vault).
import { assertRemoteConfigured, RcloneError } from '../../repository/rclone.js';
import { RcloneDestinationError } from '../../repository/rclone-destination.js';
import { parseArgs } from 'node:util';
import { systemClock } from '../../clock.js';
import { backupDepsFor } from '../../backup/backup-deps.js';
import { folderAbsence } from '../../repository/folder-target.js';
import { probeRepository } from '../../repository/repo-probe.js';
import { toResticRepo } from '../../repository/restic-target.js';
import { createLogger } from '../../log/logger.js';
import {
  addRepository,
  ensureLocalRepository,
  getRepository,
  listRepositories,
  removeRepository,
  RepositoryError,
  type NewRepository,
} from '../../repository/repositories.js';
import { secretStoreFor } from '../secrets-access.js';
import { VAULT_KEY } from '../../secrets/secret-store.js';
import { Vault } from '../../secrets/vault.js';
import type { Db } from '../../store/open.js';
import { MissingSecretError } from '../../secrets/errors.js';
import { CliError, unknownSubcommand, usageError } from '../cli-error.js';
import type { Io } from '../io.js';
import { readSecretFromStdin } from '../read-secret.js';
import { withStore } from '../store-access.js';
import type { z } from 'zod/v3';
import type { AddRepositoryRequest } from '../../contract/admin-requests.js';
import { ProbeResult, Repository as ShownRepository, RepositoryList } from '../../contract/repositories.js';
import { errorMessage, LONG_REQUEST_MS, serviceHoldsDataDir, withRunningService, type ServiceAnswer } from '../running-service.js';

const ADD_OPTIONS = {
  type: { type: 'string' },
  url: { type: 'string' },
  remote: { type: 'string' },
  region: { type: 'string' },
  'access-key-id': { type: 'string' },
  cacert: { type: 'string' },
  user: { type: 'string' },
  'rclone-config': { type: 'string' },
  path: { type: 'string' },
  'secret-stdin': { type: 'boolean' },
  'password-stdin': { type: 'boolean' },
} as const;

function describe(r: Pick<ShownRepository, 'name' | 'type' | 'location' | 'last_ok_at' | 'last_error' | 'last_error_at'>): string {
  const state = r.last_error_at && (!r.last_ok_at || r.last_error_at > r.last_ok_at) ? `failing: ${r.last_error ?? ''}` : r.last_ok_at ? 'ok' : 'not used yet';
  return `${r.name}\t${r.type}\t${r.location}\t${state}`;
}

async function vaultFor(db: Db, dataDir: string, secretsFile: string | undefined): Promise<Vault> {
  const store = await secretStoreFor(dataDir, secretsFile);
  const key = await store.get(VAULT_KEY);
  if (!key) throw new MissingSecretError('vault key', store.description);
  return new Vault(db, Buffer.from(key, 'base64'));
}

async function parseAdd(args: string[]): Promise<NewRepository> {
  const { values, positionals } = parseArgs({ args, options: ADD_OPTIONS, allowPositionals: true, strict: true });
  const name = positionals[0];
  if (!name || positionals.length > 1) throw usageError('Name the repository: `sanad repo add NAME --type s3|rest|rclone|folder …`.');
  const options = {
    ...(values.region ? { region: values.region } : {}),
    ...(values['access-key-id'] ? { access_key_id: values['access-key-id'] } : {}),
    ...(values.cacert ? { cacert: values.cacert } : {}),
    ...(values.user ? { user: values.user } : {}),
    ...(values['rclone-config'] ? { rclone_config: values['rclone-config'] } : {}),
  };
  switch (values.type) {
    case 's3': {
      if (!values.url) throw usageError('An S3 repository needs --url https://HOST[:PORT]/BUCKET[/PREFIX].');
      const secret = await readSecretFromStdin('S3 secret access key: ');
      return { name, type: 's3', location: values.url, options, secret };
    }
    case 'rest': {
      if (!values.url) throw usageError('A REST repository needs --url http[s]://HOST:PORT/[PATH].');
      const secret = values['password-stdin'] ? await readSecretFromStdin('REST password: ') : undefined;
      return { name, type: 'rest', location: values.url, options, ...(secret ? { secret } : {}) };
    }
    case 'rclone':
      if (!values.remote) throw usageError('An rclone repository needs --remote REMOTE:PATH.');
      return { name, type: 'rclone', location: values.remote, options };
    case 'folder':
      if (!values.path) throw usageError('A folder repository needs --path /FOLDER (on an external disk: where the disk is mounted, then a folder).');
      return { name, type: 'folder', location: values.path, options };
    default:
      throw usageError('Say the repository type with --type s3, rest, rclone or folder.');
  }
}

function added(repo: Pick<ShownRepository, 'name' | 'type' | 'location' | 'options'>, io: Io): number {
  const disk = repo.options.mount_point ? ` on the disk mounted at ${repo.options.mount_point} (a backup refuses while nothing is mounted there)` : '';
  io.result(repo, () => `Added ${repo.type} repository ${repo.name} (${repo.location})${disk}. Test it with \`sanad repo test ${repo.name}\`.`);
  return 0;
}

const NO_SUCH = (name: string): CliError => new CliError(`There is no repository named "${name}"; see \`sanad repo list\`.`);

/** The same commands asked of the running service: it holds the vault and the targets in memory. */
async function inService(sub: string | undefined, rest: string[], dataDir: string, io: Io): Promise<number | null> {
  if (sub !== 'list' && sub !== 'add' && sub !== 'remove' && sub !== 'test') return null;
  const input = sub === 'add' ? await parseAdd(rest) : null;
  const name = sub === 'remove' || sub === 'test' ? oneName(rest, sub) : '';
  if (sub === 'list') parseArgs({ args: rest, options: {}, strict: true });
  return withRunningService(dataDir, `sanad repo ${sub}`, async (call) => {
    const fail = (answer: ServiceAnswer, what: string): never => {
      if (answer.status === 404) throw NO_SUCH(name);
      throw new CliError(errorMessage(answer.body, `The service did not ${what} (HTTP ${answer.status}).`));
    };
    if (input !== null) {
      const body: z.input<typeof AddRepositoryRequest> = input;
      const answer = await call('POST', '/admin/repositories', body);
      const repo = ShownRepository.safeParse(answer.body);
      return answer.status === 201 && repo.success ? added(repo.data, io) : fail(answer, 'add the repository');
    }
    if (sub === 'list') {
      const answer = await call('GET', '/admin/repositories');
      const list = RepositoryList.safeParse(answer.body);
      if (!list.success) return fail(answer, 'list the repositories');
      io.result(list.data.data, () => list.data.data.map(describe).join('\n'));
      return 0;
    }
    if (sub === 'remove') {
      const answer = await call('DELETE', `/admin/repositories/${encodeURIComponent(name)}`);
      if (answer.status !== 200) return fail(answer, 'remove the repository');
      io.result({ name, removed: true }, () => `Removed the target ${name}; the data at the remote is untouched.`);
      return 0;
    }
    const answer = await call('POST', `/admin/repositories/${encodeURIComponent(name)}/test`, undefined, LONG_REQUEST_MS);
    const result = ProbeResult.safeParse(answer.body);
    if (!result.success) return fail(answer, 'test the repository');
    io.result(result.data, () => (result.data.ok ? `OK: ${result.data.detail}.` : `FAILED: ${result.data.detail}`));
    return result.data.ok ? 0 : 1;
  });
}

function oneName(rest: string[], sub: 'remove' | 'test'): string {
  const { positionals } = parseArgs({ args: rest, options: {}, allowPositionals: true, strict: true });
  const name = positionals[0];
  if (!name) throw usageError(`Name the repository to ${sub}.`);
  return name;
}

export async function repoCommand(args: string[], dataDir: string, io: Io, secretsFile: string | undefined): Promise<number> {
  const [sub, ...rest] = args;
  // A service on this data dir does the work (as Ollama's CLI asks its server); with none, it is done here.
  if (serviceHoldsDataDir(dataDir)) {
    const done = await inService(sub, rest, dataDir, io);
    if (done !== null) return done;
  }
  if (sub === 'list') {
    parseArgs({ args: rest, options: {}, strict: true });
    const repos = await withStore(dataDir, (db) => {
      ensureLocalRepository(db, dataDir, systemClock);
      return listRepositories(db);
    });
    io.result(repos, () => repos.map(describe).join('\n'));
    return 0;
  }
  if (sub === 'add') {
    const input = await parseAdd(rest);
    if (input.type === 'rclone') {
      try {
        await assertRemoteConfigured(input.location, input.options?.rclone_config ? { config: input.options.rclone_config } : {});
      } catch (err) {
        if (err instanceof RcloneDestinationError || err instanceof RcloneError) throw new CliError(err.message);
        throw err;
      }
    }
    const repo = await withStore(dataDir, async (db) => {
      const vault = await vaultFor(db, dataDir, secretsFile);
      try {
        return addRepository(db, vault, input, systemClock);
      } catch (err) {
        if (err instanceof RepositoryError) throw new CliError(err.message);
        throw err;
      }
    });
    return added(repo, io);
  }
  if (sub === 'remove') {
    const name = oneName(rest, 'remove');
    const removed = await withStore(dataDir, async (db) => {
      try {
        return removeRepository(db, await vaultFor(db, dataDir, secretsFile), name);
      } catch (err) {
        if (err instanceof RepositoryError) throw new CliError(err.message);
        throw err;
      }
    });
    if (!removed) throw NO_SUCH(name);
    io.result({ name, removed: true }, () => `Removed the target ${name}; the data at the remote is untouched.`);
    return 0;
  }
  if (sub === 'test') {
    const name = oneName(rest, 'test');
    const store = await secretStoreFor(dataDir, secretsFile);
    const result = await withStore(dataDir, async (db) => {
      ensureLocalRepository(db, dataDir, systemClock);
      const repo = getRepository(db, name);
      if (!repo) throw NO_SUCH(name);
      const absent = folderAbsence(repo);
      if (absent) return { ok: false, initialized: false, detail: absent.detail };
      const deps = await backupDepsFor({ db, dataDir, store, clock: systemClock, logger: createLogger({ level: 'warn' }) });
      return probeRepository(deps.restic, toResticRepo(repo, deps.vault, deps.passphrase));
    });
    io.result({ name, ...result }, () => (result.ok ? `OK: ${result.detail}.` : `FAILED: ${result.detail}`));
    return result.ok ? 0 : 1;
  }
  throw sub ? unknownSubcommand('repo', sub, ['add', 'list', 'remove', 'test']) : usageError('Say what to do: `sanad repo add|list|remove|test`.');
}
