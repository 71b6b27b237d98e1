// The consistent copy of the store: SQLite's online backup API on the service's own connection,
// so writes the service makes meanwhile land in the copy too (SQLite updates the destination for
// writes through the source connection instead of restarting) and the copy is one moment's state.
import { dropTemporaryClients } from '../../store/clients.js';
import Database from 'better-sqlite3';
import { checkVaultKey, VaultDecryptError } from '../../secrets/vault.js';
import type { Db } from '../../store/open.js';

/** Pages per backup step: each step holds the event loop, so keep it short for a serving service. */
const PAGES_PER_STEP = 256;

export interface CopyProgress {
  copiedPages: number;
  totalPages: number;
}

export class StoreCopyDamagedError extends Error {
  constructor(path: string, detail: string) {
    super(`The copy of the store at ${path} failed its integrity check (${detail}), so no generation was made.`);
    this.name = 'StoreCopyDamagedError';
  }
}

/** Copies the store to `dest` (a new file) and returns once the copy is complete. */
export async function copyStore(db: Db, dest: string, onProgress?: (p: CopyProgress) => void): Promise<CopyProgress> {
  const result = await db.backup(dest, {
    progress: ({ totalPages, remainingPages }) => {
      onProgress?.({ copiedPages: totalPages - remainingPages, totalPages });
      return PAGES_PER_STEP;
    },
  });
  const done = { copiedPages: result.totalPages - result.remainingPages, totalPages: result.totalPages };
  onProgress?.(done);
  return done;
}

/**
 * Makes the copy a plain rollback-journal file (the source is WAL and the backup copies its header):
 * a read-only open of a WAL file may leave `-wal`/`-shm` beside it, and a restore must not find
 * strays. Sanad switches a store back to WAL whenever it opens it read-write.
 */
export function leaveWalMode(path: string): void {
  const db = new Database(path, { fileMustExist: true });
  try {
    db.pragma('journal_mode = DELETE');
  } finally {
    db.close();
  }
}

/**
 * A CLI command's temporary admin client (store/clients.ts) may exist while the copy is made; it is
 * deleted live right after, and never belongs in a generation. secure_delete zeroes its row.
 */
export function dropTemporaryClientsInCopy(path: string): number {
  const db = new Database(path, { fileMustExist: true });
  try {
    db.pragma('secure_delete = ON');
    return dropTemporaryClients(db);
  } finally {
    db.close();
  }
}

/** `PRAGMA integrity_check` on the copy, opened read-only; returns the number of tables in it. */
export function checkStoreCopy(path: string): { tables: number } {
  const db = new Database(path, { readonly: true, fileMustExist: true });
  try {
    const messages = db.prepare<[], { integrity_check: string }>('PRAGMA integrity_check').all().map((r) => r.integrity_check);
    if (messages.length !== 1 || messages[0] !== 'ok') throw new StoreCopyDamagedError(path, messages.slice(0, 3).join('; '));
    const row = db.prepare<[], { n: number }>(
      "SELECT count(*) AS n FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%'",
    ).get();
    return { tables: row?.n ?? 0 };
  } finally {
    db.close();
  }
}

/**
 * Whether the vault key about to be saved opens the vault in the copy. A key that does not is a
 * generation whose secrets nobody can read, so that fails the run; a value that does not open
 * with the right key is damage in the live vault, which a backup must still capture (returned).
 */
export function checkVaultInCopy(path: string, vaultKey: Buffer): 'ok' | 'empty' | 'damaged' {
  const db = new Database(path, { readonly: true, fileMustExist: true });
  try {
    const verdict = checkVaultKey(db, vaultKey);
    if (verdict === 'wrong_key') throw new Error(`The vault key given does not open the vault in ${path}, so no generation was made.`);
    return verdict;
  } catch (err) {
    if (err instanceof VaultDecryptError) return 'damaged';
    throw err;
  } finally {
    db.close();
  }
}
