// The consistent copy of the store: SQLite's online backup API in a worker thread, on a connection
// of its own inside one read transaction (copy-worker.ts), so the copy is one moment's state and
// the service's event loop copies no page of it.
import { stat } from 'node:fs/promises';
import { callWorker } from '../../process/worker-call.js';
import Database from 'better-sqlite3';
import { checkVaultKey, VaultDecryptError } from '../../secrets/vault.js';

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

/** Copies the store at `source` to `dest` (a new file) and returns once the copy is complete. */
export async function copyStore(source: string, dest: string, onProgress?: (p: CopyProgress) => void): Promise<CopyProgress> {
  const size = (await stat(source)).size;
  // Reading and writing the file once: a minute plus a second per 20 MiB is far more than needed.
  const answer = await callWorker(
    new URL('./copy-worker.js', import.meta.url),
    { source, dest },
    {
      timeLimitMs: 60_000 + Math.ceil(size / (20 * 1024 * 1024)) * 1000,
      isAnswer: isCopyAnswer,
      onProgress: (msg) => {
        const progress = progressOf(msg);
        if (progress) onProgress?.(progress);
        return progress !== null;
      },
    },
  );
  if (!answer.ok) throw new Error(`Copying the store to ${dest} ${answer.message}, so no generation was made.`);
  const v = answer.value;
  if (!v.ok || v.copiedPages === undefined || v.totalPages === undefined)
    throw new Error(`Copying the store to ${dest} failed (${v.error ?? 'no reason given'}), so no generation was made.`);
  const done = { copiedPages: v.copiedPages, totalPages: v.totalPages };
  onProgress?.(done);
  return done;
}

interface CopyAnswer {
  ok: boolean;
  copiedPages?: number;
  totalPages?: number;
  error?: string;
}

function isCopyAnswer(msg: unknown): msg is CopyAnswer {
  return typeof msg === 'object' && msg !== null && 'ok' in msg && typeof msg.ok === 'boolean';
}

function progressOf(msg: unknown): CopyProgress | null {
  if (typeof msg !== 'object' || msg === null || !('progress' in msg)) return null;
  const p = msg.progress;
  if (typeof p !== 'object' || p === null || !('copiedPages' in p) || !('totalPages' in p)) return null;
  return typeof p.copiedPages === 'number' && typeof p.totalPages === 'number' ? { copiedPages: p.copiedPages, totalPages: p.totalPages } : null;
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
  const answer = await callWorker(
    new URL('./scrub-worker.js', import.meta.url),
    { path },
    { timeLimitMs: 60_000 + Math.ceil(size / (10 * 1024 * 1024)) * 1000, isAnswer: isScrubAnswer },
  );
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
