// Checks on the restored databases. Each opens read-only so the check itself writes nothing, and
// the files stay in rollback-journal mode (as the backup left them) so no `-wal`/`-shm` appears.
// The last one asks Sanad's own store code where it would read the store in the restored dir.
import Database from 'better-sqlite3';
import { readdir, stat } from 'node:fs/promises';
import { checkVaultKey, VaultDecryptError } from '../secrets/vault.js';
import { currentVersion, latestVersion } from '../store/migrate.js';
import { openStore, STORE_FILE, storePath } from '../store/open.js';
import { CheckFailed } from './checks.js';

const TABLES = "SELECT count(*) AS n FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%'";

function tableCount(db: Database.Database): number {
  return db.prepare<[], { n: number }>(TABLES).get()?.n ?? 0;
}

/** `PRAGMA integrity_check` on a read-only connection; returns the table count. */
export function integrityReadOnly(path: string): { tables: number } {
  const db = new Database(path, { readonly: true, fileMustExist: true });
  try {
    const messages = db.prepare<[], { integrity_check: string }>('PRAGMA integrity_check').all().map((r) => r.integrity_check);
    if (messages.length !== 1 || messages[0] !== 'ok') throw new CheckFailed(`${path} failed integrity_check: ${messages.slice(0, 3).join('; ')}.`);
    return { tables: tableCount(db) };
  } finally {
    db.close();
  }
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
    if (verdict === 'wrong_key') throw new CheckFailed('The vault key in the backup does not open the vault in the restored store.');
    return verdict;
  } catch (err) {
    if (err instanceof VaultDecryptError) throw new CheckFailed(`The vault key is right but a vault value does not open: ${err.message}`);
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
export async function storesLocated(dataDir: string, placed: PlacedStore[]): Promise<string> {
  const where = storeLocations(dataDir);
  const notes: string[] = [];
  for (const name of Object.keys(where)) {
    if (!placed.some((p) => p.name === name)) throw new CheckFailed(`Sanad reads ${name} from ${where[name] ?? '?'}, and the backup has no ${name}.`);
  }
  for (const item of placed) {
    const path = where[item.name];
    if (!path) throw new CheckFailed(`The backup names a store "${item.name}" that this Sanad does not read; it would be lost, so the restore stops.`);
    const [sanads, restored] = await Promise.all([stat(path).catch(() => null), stat(item.path).catch(() => null)]);
    if (!sanads) throw new CheckFailed(`Sanad would open ${path} for ${item.name}, and nothing is there.`);
    if (!restored || sanads.ino !== restored.ino || sanads.dev !== restored.dev) throw new CheckFailed(`Sanad would open ${path} for ${item.name}, which is not the file the restore placed (${item.path}).`);
    const db = openStore(path, { readonly: true });
    try {
      const tables = tableCount(db);
      if (tables !== item.tables) throw new CheckFailed(`${path} opened by Sanad has ${tables} tables; the manifest says ${item.tables}.`);
      const version = currentVersion(db);
      if (version > latestVersion()) throw new CheckFailed(`${path} was written by a newer Sanad (store version ${version}; this one knows up to ${latestVersion()}); install that version to serve it.`);
      notes.push(`${item.name} at ${path} (${tables} tables, store version ${version})`);
    } finally {
      db.close();
    }
  }
  return `Sanad opens ${notes.join(', ')}.`;
}
