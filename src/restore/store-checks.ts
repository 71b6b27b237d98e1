// Checks on the restored databases. Each opens read-only so the check itself writes nothing, and
// the files stay in rollback-journal mode (as the backup left them) so no `-wal`/`-shm` appears.
// The last one asks Sanad's own store code where it would read the store in the restored dir.
import Database from 'better-sqlite3';
import { readdir, stat } from 'node:fs/promises';
import { checkVaultKey, VaultDecryptError } from '../secrets/vault.js';
import { currentVersion, latestVersion } from '../store/migrate.js';
import { integrityCheck } from '../store/integrity.js';
import { openStore } from '../store/open.js';
import type { Spoken } from '../contract/said.js';
import { say } from '../contract/said/index.js';
import { CheckFailed } from './checks.js';
import { STORE_FILE, storePath } from '../files/data-dir-layout.js';

const TABLES = "SELECT count(*) AS n FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%'";

function tableCount(db: Database.Database): number {
  return db.prepare<[], { n: number }>(TABLES).get()?.n ?? 0;
}

/** `PRAGMA integrity_check` on a read-only connection, in a worker; returns the table count. */
export async function integrityReadOnly(path: string): Promise<{ tables: number }> {
  const verdict = await integrityCheck(path);
  if (!verdict.whole) throw new CheckFailed(say('restore.integrity_failed', { path, found: verdict.found }));
  return { tables: verdict.tables };
}

/** SQLite side files left in `dir` (a WAL that was never checkpointed, a hot journal). */
export async function sqliteStrays(dir: string): Promise<string[]> {
  return (await readdir(dir)).filter((n) => /-(wal|shm|journal)$/.test(n));
}

/** The vault key against the restored vault: 'ok' or 'empty' pass; a wrong key or damage fails. */
export function vaultDecrypts(path: string, key: Buffer): 'ok' | 'empty' {
  const db = new Database(path, { readonly: true, fileMustExist: true });
  try {
    const verdict = checkVaultKey(db, key);
    if (verdict === 'wrong_key') throw new CheckFailed(say('restore.vault_wrong_key'));
    return verdict;
  } catch (err) {
    if (err instanceof VaultDecryptError) throw new CheckFailed(say('restore.vault_value_damaged', { error: err.message }));
    throw err;
  } finally {
    db.close();
  }
}

/** Where this Sanad reads each database of a data dir, by its name in a manifest. */
export function storeLocations(dataDir: string): Record<string, string> {
  return { [STORE_FILE]: storePath(dataDir) };
}

export interface PlacedStore {
  /** The item's path in the manifest (`sanad.db`). */
  name: string;
  /** Where the restore put it. */
  path: string;
  tables: number;
}

/**
 * Opens the restored dir with Sanad's own store code and checks that every store the backup names
 * is where Sanad will read it (the same file the restore placed), with the tables the manifest
 * counted, and that every store Sanad reads came with the backup.
 */
export async function storesLocated(dataDir: string, placed: PlacedStore[]): Promise<Spoken> {
  const where = storeLocations(dataDir);
  const notes: Spoken[] = [];
  for (const name of Object.keys(where)) {
    if (!placed.some((p) => p.name === name)) throw new CheckFailed(say('restore.store_missing', { store: name, path: where[name] ?? '?' }));
  }
  for (const item of placed) {
    const path = where[item.name];
    if (!path) throw new CheckFailed(say('restore.store_unknown', { store: item.name }));
    const [sanads, restored] = await Promise.all([stat(path).catch(() => null), stat(item.path).catch(() => null)]);
    if (!sanads) throw new CheckFailed(say('restore.store_nothing', { path, store: item.name }));
    if (!restored || sanads.ino !== restored.ino || sanads.dev !== restored.dev)
      throw new CheckFailed(say('restore.store_other_file', { path, store: item.name, file: item.path }));
    const db = openStore(path, { readonly: true });
    try {
      const tables = tableCount(db);
      if (tables !== item.tables) throw new CheckFailed(say('restore.store_tables', { path, tables, expected: item.tables }));
      const version = currentVersion(db);
      if (version > latestVersion()) throw new CheckFailed(say('restore.store_too_new', { path, version, latest: latestVersion() }));
      notes.push(say('restore.store_opens', { store: item.name, path, tables, version }));
    } finally {
      db.close();
    }
  }
  return say('restore.stores_located', { stores: notes });
}
