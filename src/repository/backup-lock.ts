// The data dir's backup lock: held by whatever writes to the repositories (a backup, an offsite
// catch-up, a passphrase rotation or its reconcile), in this process or another, so two never
// write at once. A drill and `sanad backup now` ask whether it is held.
import { existsSync } from 'node:fs';
import { backupLockPath, backupsDir } from '../files/data-dir-layout.js';
import { tryFileLock, type FileLock } from '../store/file-lock.js';

/** The backup lock, or null when another holder has it. */
export function tryBackupLock(dataDir: string): FileLock | null {
  return tryFileLock(backupLockPath(dataDir));
}

/**
 * Whether a backup holds the data dir's backup lock. Probing means taking the lock for an instant
 * (SQLite has no "is it locked" call), synchronously, so no backup in this process can try in
 * between; a backup in another process starting in that very instant would be refused as busy.
 */
export function backupLockHeld(dataDir: string): boolean {
  if (!existsSync(backupsDir(dataDir))) return false;
  const lock = tryBackupLock(dataDir);
  if (lock === null) return true;
  lock.release();
  return false;
}
