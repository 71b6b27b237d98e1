// Opening the store: one SQLite file per data dir, WAL, foreign keys on, and full fsync on commit
// because LMSP §11.2 promises that a task exists before its 202 is written.
import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { migrate, type MigrateOptions } from './migrate.js';
import { isStoreDamage, StoreDamagedError } from './store-check.js';

/**
 * Read and write kept apart in types (as Signal Desktop does): the store's owners write through a
 * WritableDB; route handlers and status functions get a ReadableDB, whose statements can only be
 * read (`get`, `all`), so a handler cannot write by accident: a write goes through its owner.
 */
export type WritableDB = Database.Database;
/** The writable store, as most owners name it. */
export type Db = WritableDB;

export interface ReadStatement<P extends unknown[], R> {
  get(...params: P): R | undefined;
  all(...params: P): R[];
}

export interface ReadableDB {
  // The same generic shape as better-sqlite3's prepare, so a WritableDB is a ReadableDB.
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- better-sqlite3's own bound ({} = named parameters)
  prepare<P extends unknown[] | {} = unknown[], R = unknown>(sql: string): P extends unknown[] ? ReadStatement<P, R> : ReadStatement<[P], R>;
}

export interface OpenOptions extends MigrateOptions {
  readonly?: boolean;
}

/** Opens (creating if needed) and migrates the store at `path`. */
export function openStore(path: string, options: OpenOptions = {}): Db {
  if (!options.readonly) mkdirSync(dirname(path), { recursive: true });
  let db: Database.Database;
  try {
    db = new Database(path, { readonly: options.readonly ?? false, fileMustExist: options.readonly ?? false });
  } catch (err) {
    throw isStoreDamage(err) ? new StoreDamagedError(path, err instanceof Error ? err.message : String(err)) : err;
  }
  try {
    applyPragmas(db, options.readonly ?? false);
    if (!options.readonly) migrate(db, path, options);
  } catch (err) {
    db.close();
    // SQLite noticed the damage on the way in: say so, never "unexpected error".
    throw isStoreDamage(err) ? new StoreDamagedError(path, err instanceof Error ? err.message : String(err)) : err;
  }
  return db;
}

/**
 * macOS: fsync() hands the data to the drive, whose own cache may still lose it at a power cut;
 * only F_FULLFSYNC flushes that cache, and SQLite uses it (for commits and WAL checkpoints) only
 * when asked. Other systems' fsync() already reaches the platter, so the pragmas stay off there.
 */
export function fullFsyncPragmas(os: NodeJS.Platform): string[] {
  return os === 'darwin' ? ['fullfsync = ON', 'checkpoint_fullfsync = ON'] : [];
}

export function applyPragmas(db: Db, readonly: boolean, os: NodeJS.Platform = process.platform): void {
  // Another process (the CLI beside a running `sanad serve`) may hold the write lock briefly.
  db.pragma('busy_timeout = 5000');
  db.pragma('foreign_keys = ON');
  if (readonly) return;
  // A deleted row's bytes are overwritten with zeros, not left in a free page: "deleted" holds
  // for the file (and every page a backup copies), not only for the rows a query sees.
  db.pragma('secure_delete = ON');
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  // Savepoints and statements that may need undoing keep their undo pages in a sub-journal; with
  // temp files that is a file created, written and dropped inside every batch of creates, and it
  // cost ~60% of each create (npm run bench -- load: 140 -> 55 us per create here). In memory it
  // is a few pages; the big work that would spill (VACUUM INTO, integrity checks) runs in workers
  // on connections of their own, which keep the default.
  db.pragma('temp_store = MEMORY');
  for (const pragma of fullFsyncPragmas(os)) db.pragma(pragma);
}
