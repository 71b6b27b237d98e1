// Is the store whole? Asked before Sanad writes anything at start: the file is opened read-only
// and SQLite's own `quick_check` reads every page. A damaged store is never written, migrated
// or "repaired" in place; the caller refuses to start and says how to restore it.
import Database from 'better-sqlite3';
import { existsSync } from 'node:fs';

export type StoreInspection = { state: 'absent' } | { state: 'ok' } | { state: 'damaged'; reason: string };

const DAMAGE_CODES = new Set(['SQLITE_CORRUPT', 'SQLITE_NOTADB', 'SQLITE_CORRUPT_INDEX', 'SQLITE_CORRUPT_SEQUENCE', 'SQLITE_CORRUPT_VTAB']);

/** True for the errors SQLite gives for a damaged file ("database disk image is malformed"…). */
export function isStoreDamage(err: unknown): boolean {
  if (typeof err !== 'object' || err === null || !('code' in err) || typeof err.code !== 'string') return false;
  return DAMAGE_CODES.has(err.code) || err.code.startsWith('SQLITE_CORRUPT');
}

export function inspectStore(path: string): StoreInspection {
  if (!existsSync(path)) return { state: 'absent' };
  let db: Database.Database | null = null;
  try {
    db = new Database(path, { readonly: true, fileMustExist: true });
    db.pragma('busy_timeout = 5000');
    const rows: unknown = db.pragma('quick_check(5)', { simple: false });
    const lines = Array.isArray(rows) ? rows.map((r: unknown) => (typeof r === 'object' && r !== null ? Object.values(r).join(' ') : String(r))) : [];
    if (lines.length === 1 && lines[0] === 'ok') return { state: 'ok' };
    return { state: 'damaged', reason: `quick_check found: ${lines.slice(0, 3).join('; ') || 'no answer'}` };
  } catch (err) {
    if (isStoreDamage(err)) return { state: 'damaged', reason: err instanceof Error ? err.message : String(err) };
    throw err;
  } finally {
    db?.close();
  }
}

/** The store is damaged; `advice` says what to do (when it was last backed up, how to restore). */
export class StoreDamagedError extends Error {
  constructor(
    readonly path: string,
    readonly reason: string,
    readonly advice = '',
  ) {
    super(`The store at ${path} is damaged (${reason.replace(/\.$/, '')}); Sanad has not changed it and will not write to it.${advice ? ` ${advice}` : ''}`);
    this.name = 'StoreDamagedError';
  }
}
