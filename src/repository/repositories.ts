// Backup repositories (table `repositories`): the local one, always present, and the offsite
// ones the user adds. Their secrets (S3 secret key, REST password) live in the vault under
// `repo/<name>/…`; the table holds only what may be shown.
import { refusalOf } from '../contract/issue-words.js';
import { isAbsolute, resolve } from 'node:path';
import { RepositoryOptions, type RepositoryType } from '../contract/repositories.js';
import type { Clock } from '../clock.js';
import { unixSeconds } from '../clock.js';
import type { Vault } from '../secrets/vault.js';
import type { Db, ReadableDB } from '../store/open.js';
import { isOnDisk, mountPointOf } from './folder-target.js';
import { parseRcloneDestination } from './rclone-destination.js';
import { asBookkeeping } from '../store/content-mark.js';
import { defaultLocalRepository } from '../files/data-dir-layout.js';

export type { RepositoryOptions, RepositoryType } from '../contract/repositories.js';
const Options = RepositoryOptions;

export interface Repository {
  name: string;
  type: RepositoryType;
  location: string;
  options: RepositoryOptions;
  enabled: boolean;
  created_at: number;
  last_ok_at: number | null;
  last_error: string | null;
  last_error_at: number | null;
}

interface Row extends Omit<Repository, 'options' | 'enabled'> {
  options: string;
  enabled: number;
}

export class RepositoryError extends Error {
  constructor(
    message: string,
    readonly param: string | null = null,
  ) {
    super(message);
    this.name = 'RepositoryError';
  }
}

export const LOCAL = 'local';
const NAME = /^[a-z0-9][a-z0-9_-]{0,31}$/;

function toRepository(row: Row): Repository {
  const parsed = Options.safeParse(JSON.parse(row.options));
  return { ...row, options: parsed.success ? parsed.data : {}, enabled: row.enabled === 1 };
}

export function listRepositories(db: ReadableDB): Repository[] {
  return db.prepare<[], Row>("SELECT * FROM repositories ORDER BY name = 'local' DESC, name").all().map(toRepository);
}

export function getRepository(db: ReadableDB, name: string): Repository | null {
  const row = db.prepare<[string], Row>('SELECT * FROM repositories WHERE name = ?').get(name);
  return row ? toRepository(row) : null;
}

/** The local repository exists from the first run; its location may be moved to another disk. */
export function ensureLocalRepository(db: Db, dataDir: string, clock: Clock): Repository {
  db.prepare("INSERT OR IGNORE INTO repositories(name, type, location, created_at) VALUES ('local', 'local', ?, ?)").run(
    defaultLocalRepository(dataDir),
    unixSeconds(clock),
  );
  const local = getRepository(db, LOCAL);
  if (!local) throw new Error('the local repository row could not be created');
  return local;
}

export function moveLocalRepository(db: Db, location: string): void {
  db.prepare("UPDATE repositories SET location = ? WHERE name = 'local'").run(resolve(location));
}

/** Checks an offsite location and normalises it; throws RepositoryError with the bad param. */
export function validateLocation(type: Exclude<RepositoryType, 'local'>, location: string): string {
  if (type === 'folder') {
    if (!isAbsolute(location))
      throw new RepositoryError(`"${location}" is not a whole path; give the folder from the top, such as /media/you/disk/sanad.`, 'location');
    return resolve(location);
  }
  if (type === 'rclone') {
    try {
      parseRcloneDestination(location);
    } catch (err) {
      throw new RepositoryError(err instanceof Error ? err.message : String(err), 'remote');
    }
    return location;
  }
  let url: URL;
  try {
    url = new URL(location);
  } catch {
    throw new RepositoryError(
      `"${location}" is not a URL; use ${type === 's3' ? 'https://HOST[:PORT]/BUCKET[/PREFIX]' : 'http[s]://HOST:PORT/[PATH]'}.`,
      'url',
    );
  }
  if (url.username || url.password) throw new RepositoryError('Do not put credentials in the URL; give them separately (they go to the vault).', 'url');
  if (type === 's3' && ((url.protocol !== 'https:' && url.protocol !== 'http:') || url.pathname.replace(/\//g, '') === '')) {
    throw new RepositoryError('An S3 URL is https://HOST[:PORT]/BUCKET[/PREFIX] and must name a bucket.', 'url');
  }
  if (type === 'rest' && url.protocol !== 'https:' && url.protocol !== 'http:') throw new RepositoryError('A REST URL starts with http:// or https://.', 'url');
  return url.toString().replace(/\/$/, '');
}

/**
 * A folder target's disk is Sanad's to find, never a client's to say: where the folder's filesystem
 * is mounted when the target is added or moved (kept as it was otherwise, so an edit made while the
 * disk is away does not forget it). Other types never carry one.
 */
function withMountPoint(type: RepositoryType, location: string, options: RepositoryOptions, kept: string | undefined): RepositoryOptions {
  const rest = { ...options };
  delete rest.mount_point;
  if (type !== 'folder') return rest;
  const mount = kept ?? mountPointOf(location);
  return mount === null || mount === undefined ? rest : { ...rest, mount_point: mount };
}

/** Two targets in one folder would be one restic repository counted twice. */
function assertFolderFree(db: ReadableDB, location: string, name: string): void {
  const taken = listRepositories(db).find((r) => r.name !== name && isOnDisk(r.type) && resolve(r.location) === location);
  if (taken) throw new RepositoryError(`The folder ${location} is already the repository "${taken.name}"; pick another folder.`, 'location');
}

export interface NewRepository {
  name: string;
  type: Exclude<RepositoryType, 'local'>;
  location: string;
  options?: RepositoryOptions;
  /** S3 secret access key or REST password: into the vault, never the table. */
  secret?: string;
}

export function addRepository(db: Db, vault: Vault, input: NewRepository, clock: Clock): Repository {
  if (!NAME.test(input.name) || input.name === LOCAL) {
    throw new RepositoryError('A repository name is 1 to 32 lowercase letters, digits, "-" or "_", and not "local".', 'name');
  }
  if (getRepository(db, input.name)) throw new RepositoryError(`A repository named "${input.name}" exists already; pick another name.`, 'name');
  const location = validateLocation(input.type, input.location);
  const options = withMountPoint(input.type, location, Options.parse(input.options ?? {}), undefined);
  if (input.type === 'folder') assertFolderFree(db, location, input.name);
  if (input.type === 's3' && (!options.access_key_id || !input.secret)) {
    throw new RepositoryError('An S3 repository needs an access key id and a secret key.', options.access_key_id ? 'secret' : 'access_key_id');
  }
  db.transaction(() => {
    db.prepare('INSERT INTO repositories(name, type, location, options, created_at) VALUES (?, ?, ?, ?, ?)').run(
      input.name,
      input.type,
      location,
      JSON.stringify(options),
      unixSeconds(clock),
    );
    if (input.secret) vault.set(secretName(input.name), input.secret);
  })();
  const added = getRepository(db, input.name);
  if (!added) throw new Error('the repository row vanished');
  return added;
}

export interface RepositoryPatch {
  location?: string;
  /** The whole set of non-secret options: it replaces the current one. */
  options?: RepositoryOptions;
  enabled?: boolean;
  /** A new secret replaces the stored one, null removes it, absent keeps it. */
  secret?: string | null;
}

/**
 * Edits an offsite target, validated like an add. A new location is another repository: its
 * last good copy and last error are cleared, so status and drills never credit the old place.
 * Returns null when there is no such target.
 */
export function updateRepository(db: Db, vault: Vault, name: string, patch: RepositoryPatch): Repository | null {
  if (name === LOCAL) throw new RepositoryError('The local repository has only a location; move it with PATCH /admin/repositories/local.', 'name');
  const current = getRepository(db, name);
  if (!current) return null;
  if (current.type === 'local') throw new RepositoryError('The local repository has only a location.', 'name');
  const location = patch.location === undefined ? current.location : validateLocation(current.type, patch.location);
  const parsed = Options.safeParse(patch.options ?? current.options);
  if (!parsed.success) {
    const { param, message } = refusalOf(parsed.error.issues[0], ['options']);
    throw new RepositoryError(message, param ?? 'options');
  }
  const options = withMountPoint(current.type, location, parsed.data, location === current.location ? current.options.mount_point : undefined);
  if (current.type === 'folder' && location !== current.location) assertFolderFree(db, location, name);
  const hasSecret = patch.secret === undefined ? hasRepositorySecret(vault, name) : patch.secret !== null;
  if (current.type === 's3' && (!options.access_key_id || !hasSecret)) {
    throw new RepositoryError('An S3 repository needs an access key id and a secret key.', options.access_key_id ? 'secret' : 'access_key_id');
  }
  const moved = location !== current.location;
  db.transaction(() => {
    db.prepare('UPDATE repositories SET location = ?, options = ?, enabled = ? WHERE name = ?').run(
      location,
      JSON.stringify(options),
      (patch.enabled ?? current.enabled) ? 1 : 0,
      name,
    );
    if (moved) db.prepare('UPDATE repositories SET last_ok_at = NULL, last_error = NULL, last_error_at = NULL WHERE name = ?').run(name);
    if (typeof patch.secret === 'string') vault.set(secretName(name), patch.secret);
    else if (patch.secret === null) vault.delete(secretName(name));
  })();
  return getRepository(db, name);
}

/** Whether the target has a secret in the vault (the GUI says "stored", never shows it). */
export function hasRepositorySecret(vault: Vault, name: string): boolean {
  return vault.names().includes(secretName(name));
}

/** Removes the target (never the data at the remote) and its secret. */
export function removeRepository(db: Db, vault: Vault, name: string): boolean {
  if (name === LOCAL) throw new RepositoryError('The local repository cannot be removed; move it instead.', 'name');
  return db.transaction(() => {
    vault.delete(secretName(name));
    return db.prepare('DELETE FROM repositories WHERE name = ?').run(name).changes > 0;
  })();
}

export function secretName(repo: string): string {
  return `repo/${repo}/secret`;
}

export function recordRepositoryResult(db: Db, name: string, nowS: number, error: string | null): void {
  asBookkeeping(db, () => {
    if (error === null) db.prepare('UPDATE repositories SET last_ok_at = ? WHERE name = ?').run(nowS, name);
    else db.prepare('UPDATE repositories SET last_error = ?, last_error_at = ? WHERE name = ?').run(error, nowS, name);
  });
}

/**
 * Where each repository is, for the recovery kit: enough to find it again from a new machine, and
 * never a credential (an S3 secret key or a REST password stays in the vault; the kit says which
 * one the user must bring from the provider's account).
 */
export function recoveryLocations(db: ReadableDB): Array<{ name: string; location: string }> {
  return listRepositories(db).map((r) => {
    const o = r.options;
    const extra =
      r.type === 's3'
        ? [`access key id ${o.access_key_id ?? '?'}`, o.region ? `region ${o.region}` : '', 'secret key: from your storage provider']
        : r.type === 'rest'
          ? [o.user ? `user ${o.user}` : '', o.user ? 'password: from whoever runs the server' : '']
          : r.type === 'rclone'
            ? ['the rclone remote must be configured on the new machine (rclone config)']
            : [];
    const details = extra.filter((e) => e !== '');
    const location = `${r.type === 'local' ? '' : `${r.type} `}${r.location}${details.length ? ` (${details.join('; ')})` : ''}`;
    return { name: r.name, location };
  });
}
