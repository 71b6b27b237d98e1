// The `offsite_copies` table: what was uploaded where, so the drill can read back each object's
// size against what was sent, and a pruned object stops being expected.
import type { Db } from '../store/open.js';

export interface OffsiteCopyRow {
  destination: string;
  name: string;
  epoch: number;
  size: number;
  sha256: string;
  uploaded_at: number;
}

export function recordOffsiteCopy(db: Db, row: OffsiteCopyRow): void {
  // A re-upload of the same generation replaces the row: the object on the remote was replaced too.
  db.prepare(
    `INSERT INTO offsite_copies(destination, name, epoch, size, sha256, uploaded_at) VALUES (@destination, @name, @epoch, @size, @sha256, @uploaded_at)
     ON CONFLICT(destination, name) DO UPDATE SET epoch = excluded.epoch, size = excluded.size, sha256 = excluded.sha256, uploaded_at = excluded.uploaded_at`,
  ).run(row);
}

export function forgetOffsiteCopy(db: Db, destination: string, name: string): void {
  db.prepare('DELETE FROM offsite_copies WHERE destination = ? AND name = ?').run(destination, name);
}

/** Every copy recorded for a destination, newest epoch first. */
export function listOffsiteCopies(db: Db, destination: string): OffsiteCopyRow[] {
  return db.prepare<[string], OffsiteCopyRow>('SELECT * FROM offsite_copies WHERE destination = ? ORDER BY epoch DESC').all(destination);
}

/** "remote:folder/" and "remote:folder" are the same folder (and the same rows in the table). */
export function normalizeCopyDestination(destination: string): string {
  const stripped = destination.replace(/\/+$/, '');
  return stripped.endsWith(':') && destination !== stripped ? `${stripped}/` : stripped;
}
