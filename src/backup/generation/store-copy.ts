// The consistent copy of the store: SQLite's online backup API on the service's own connection,
// so writes the service makes meanwhile land in the copy too (SQLite updates the destination for
// writes through the source connection instead of restarting) and the copy is one moment's state.
import { stat } from 'node:fs/promises';
import { callWorker } from '../../process/worker-call.js';
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
 * Makes the copy hold the live rows and nothing more (scrub-worker.ts: rollback-journal mode, no
 * temporary client or pairing code, VACUUM so no free page keeps deleted bytes), then checks it
 * (`PRAGMA integrity_check`) and counts its tables, all in a worker so the service keeps answering.
 * Throws StoreCopyDamagedError for a copy that fails the check, and with the reason otherwise.
 */
export async function scrubStoreCopy(path: string): Promise<{ temporaryClients: number; pairingCodes: number; tables: number }> {
  const size = (await stat(path)).size;
  // VACUUM writes the file about twice: a minute plus a second per 10 MiB is far more than needed.
  const answer = await callWorker(new URL('./scrub-worker.js', import.meta.url), { path }, { timeLimitMs: 60_000 + Math.ceil(size / (10 * 1024 * 1024)) * 1000, isAnswer: isScrubAnswer });
  if (!answer.ok) throw new Error(`Cleaning the copy of the store at ${path} ${answer.message}, so no generation was made.`);
  const v = answer.value;
  if (!v.ok) throw new Error(`Cleaning the copy of the store at ${path} failed (${v.error ?? 'no reason given'}), so no generation was made.`);
  if (typeof v.damage === 'string') throw new StoreCopyDamagedError(path, v.damage);
  return { temporaryClients: v.temporaryClients ?? 0, pairingCodes: v.pairingCodes ?? 0, tables: v.tables ?? 0 };
}

interface ScrubAnswer {
  ok: boolean;
  temporaryClients?: number;
  pairingCodes?: number;
  damage?: string | null;
  tables?: number;
  error?: string;
}

function isScrubAnswer(msg: unknown): msg is ScrubAnswer {
  return typeof msg === 'object' && msg !== null && 'ok' in msg && typeof msg.ok === 'boolean';
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
