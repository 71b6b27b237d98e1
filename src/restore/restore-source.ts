// Where a restore reads from, as named in a data dir: its repository row (local or offsite), the
// credentials in its vault, and its own passphrase. Reads only; the CLI opens the store read-only.
import { assertFolderPresent, isOnDisk } from '../repository/folder-target.js';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { getRepository, LOCAL, type Repository } from '../repository/repositories.js';
import { findRestic } from '../repository/restic/index.js';
import { toResticRepo } from '../repository/restic-target.js';
import { MissingSecretError } from '../secrets/errors.js';
import type { Vault } from '../secrets/vault.js';
import type { Db } from '../store/open.js';
import { isStoreDamage } from '../store/store-check.js';
import { readLastGood } from '../repository/last-good.js';
import { recordedCopies, type RecordedCopy } from '../repository/backup-runs.js';
import type { RepositorySource } from './open-repository.js';
import { defaultLocalRepository } from '../files/data-dir-layout.js';

export class UnknownRepositoryError extends Error {
  constructor(name: string, dataDir: string, message?: string) {
    super(message ?? `There is no repository named "${name}" in ${dataDir}; see \`sanad repo list\` (on a new machine, add it first with \`sanad repo add\`).`);
    this.name = 'UnknownRepositoryError';
  }
}

export interface SourceInput {
  /** The data dir's store, read-only; null when it is damaged (then only `local` can be read). */
  db: Db | null;
  dataDir: string;
  repoName: string;
  /** The data dir's vault (offsite credentials); null when it has no vault key. */
  vault: Vault | null;
  /** Where `vault` would come from, for the message when it is missing. */
  secretsDescription: string;
  knownPassphrase: string | null;
  askPassphrase?: () => Promise<string | null>;
  passphraseHint?: string;
  /** The data dir's vault key, when its keychain has one. */
  knownVaultKey?: Buffer | null;
}

/** A local restic repository names each snapshot file by its id; null when the folder cannot be read. */
export async function localSnapshotIds(location: string): Promise<string[] | null> {
  const names = await readdir(join(location, 'snapshots')).catch(() => null);
  return names === null ? null : names.filter((n) => /^[0-9a-f]{64}$/.test(n));
}

/** What the store recorded sending to the repository; nothing when it cannot be read. */
function readRecords(db: Db | null, name: string): RecordedCopy[] {
  if (db === null) return [];
  try {
    return recordedCopies(db, name);
  } catch (err) {
    if (isStoreDamage(err)) return [];
    throw err;
  }
}

/** The repository's row, or null; a damaged store reads as null (the local default is then used). */
function readRow(db: Db | null, name: string): Repository | null | 'damaged' {
  if (db === null) return 'damaged';
  try {
    return getRepository(db, name);
  } catch (err) {
    if (isStoreDamage(err)) return 'damaged';
    throw err;
  }
}

export async function repositorySourceFor(input: SourceInput): Promise<RepositorySource> {
  const found = readRow(input.db, input.repoName);
  if (found === 'damaged' && input.repoName !== LOCAL) {
    throw new UnknownRepositoryError(
      input.repoName,
      input.dataDir,
      `The store of ${input.dataDir} is damaged, so the settings of the repository "${input.repoName}" cannot be read; restore from "local", or add "${input.repoName}" again on a new data dir (\`sanad repo add\`) and restore from there.`,
    );
  }
  // A data dir that never backed up has no row yet; its local repository is the default one (or,
  // with a damaged store, where the last good backup put it).
  const localLocation =
    found === 'damaged' ? (readLastGood(input.dataDir)?.local_location ?? defaultLocalRepository(input.dataDir)) : defaultLocalRepository(input.dataDir);
  const row: Repository | null =
    (found === 'damaged' ? null : found) ??
    (input.repoName === LOCAL
      ? {
          name: LOCAL,
          type: 'local',
          location: localLocation,
          options: {},
          enabled: true,
          created_at: 0,
          last_ok_at: null,
          last_error: null,
          last_error_at: null,
        }
      : null);
  if (!row) throw new UnknownRepositoryError(input.repoName, input.dataDir);
  assertFolderPresent(row);
  const vault = input.vault;
  if (!vault && !isOnDisk(row.type)) throw new MissingSecretError('vault key', input.secretsDescription);
  const binary = await findRestic({ ...(process.env.SANAD_RESTIC ? { configuredPath: process.env.SANAD_RESTIC } : {}) });
  return {
    repoName: row.name,
    binary,
    knownPassphrase: input.knownPassphrase,
    knownVaultKey: input.knownVaultKey ?? null,
    recorded: found === 'damaged' ? [] : readRecords(input.db, row.name),
    snapshotIds: async () => (isOnDisk(row.type) ? localSnapshotIds(row.location) : null),
    ...(input.askPassphrase ? { askPassphrase: input.askPassphrase } : {}),
    ...(input.passphraseHint ? { passphraseHint: input.passphraseHint } : {}),
    repoFor: (passphrase) => (vault ? toResticRepo(row, vault, passphrase) : { name: row.name, url: row.location, password: passphrase }),
  };
}
