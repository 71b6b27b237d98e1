// `sanad repo add|list|remove`: offsite backup targets. Secrets come from stdin or a prompt,
// never argv, and go to the vault.
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
  type Repository,
} from '../../repository/repositories.js';
import { secretStoreFor } from '../secrets-access.js';
import { VAULT_KEY } from '../../secrets/secret-store.js';
import { Vault } from '../../secrets/vault.js';
import type { Db } from '../../store/open.js';
import { MissingSecretError } from '../../secrets/errors.js';
import { CliError, usageError } from '../cli-error.js';
import type { Io } from '../io.js';
import { readSecretFromStdin } from '../read-secret.js';
import { withStore } from '../store-access.js';

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

function describe(r: Repository): string {
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

export async function repoCommand(args: string[], dataDir: string, io: Io, secretsFile: string | undefined): Promise<number> {
  const [sub, ...rest] = args;
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
    const disk = repo.options.mount_point ? ` on the disk mounted at ${repo.options.mount_point} (a backup refuses while nothing is mounted there)` : '';
    io.result(repo, () => `Added ${repo.type} repository ${repo.name} (${repo.location})${disk}. Test it with \`sanad repo test ${repo.name}\`.`);
    return 0;
  }
  if (sub === 'remove') {
    const { positionals } = parseArgs({ args: rest, options: {}, allowPositionals: true, strict: true });
    const name = positionals[0];
    if (!name) throw usageError('Name the repository to remove.');
    const removed = await withStore(dataDir, async (db) => {
      try {
        return removeRepository(db, await vaultFor(db, dataDir, secretsFile), name);
      } catch (err) {
        if (err instanceof RepositoryError) throw new CliError(err.message);
        throw err;
      }
    });
    if (!removed) throw new CliError(`There is no repository named "${name}"; see \`sanad repo list\`.`);
    io.result({ name, removed: true }, () => `Removed the target ${name}; the data at the remote is untouched.`);
    return 0;
  }
  if (sub === 'test') {
    const { positionals } = parseArgs({ args: rest, options: {}, allowPositionals: true, strict: true });
    const name = positionals[0];
    if (!name) throw usageError('Name the repository to test.');
    const store = await secretStoreFor(dataDir, secretsFile);
    const result = await withStore(dataDir, async (db) => {
      ensureLocalRepository(db, dataDir, systemClock);
      const repo = getRepository(db, name);
      if (!repo) throw new CliError(`There is no repository named "${name}"; see \`sanad repo list\`.`);
      const absent = folderAbsence(repo);
      if (absent) return { ok: false, initialized: false, detail: absent.detail };
      const deps = await backupDepsFor({ db, dataDir, store, clock: systemClock, logger: createLogger({ level: 'warn' }) });
      return probeRepository(deps.restic, toResticRepo(repo, deps.vault, deps.passphrase));
    });
    io.result({ name, ...result }, () => (result.ok ? `OK: ${result.detail}.` : `FAILED: ${result.detail}`));
    return result.ok ? 0 : 1;
  }
  throw usageError(sub ? `Unknown repo command "${sub}".` : 'Say what to do: `sanad repo add|list|remove|test`.');
}
