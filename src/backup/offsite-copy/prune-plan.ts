// Which offsite copies to delete, decided from a listing alone (pure, so every rule is testable).
// Deleting is only safe from a listing that proves the new copy arrived whole: if the copy just
// uploaded is missing or has another size, the listing (or the upload) cannot be trusted and
// nothing is deleted. Copies are ranked by the epoch in their name, not by the remote's mod times,
// which some backends do not keep.
import { epochOfCopyName } from './archive.js';
import type { RcloneEntry } from '../../repository/rclone.js';

export interface PrunePlan {
  /** Names to delete, oldest first. */
  doomed: string[];
  /** Why nothing may be deleted, or null when `doomed` can be acted on. */
  refused: string | null;
}

export function planPrune(listing: readonly RcloneEntry[], uploaded: { name: string; size: number }, keep: number): PrunePlan {
  if (!Number.isInteger(keep) || keep < 0) throw new Error(`Offsite copies must keep a whole number of copies, not ${keep}.`);
  // lsjson lists one folder level, so Path equals Name for what lives in the folder itself.
  const files = listing.filter((e) => !e.IsDir && e.Path === e.Name);
  const mine = files.find((e) => e.Name === uploaded.name);
  if (!mine) return { doomed: [], refused: `the listing does not show ${uploaded.name}, which was just uploaded` };
  if (mine.Size !== uploaded.size) {
    return { doomed: [], refused: `the listing shows ${uploaded.name} with ${mine.Size} bytes, but ${uploaded.size} were uploaded` };
  }
  if (keep === 0) return { doomed: [], refused: null };
  const copies = files
    .map((e) => ({ name: e.Name, epoch: epochOfCopyName(e.Name) }))
    .filter((c): c is { name: string; epoch: number } => c.epoch !== null)
    .sort((a, b) => b.epoch - a.epoch);
  // The copy just uploaded is never deleted, even if a copy with a later epoch exists (a clock
  // that went backwards, another machine writing to the same folder).
  const doomed = copies
    .slice(keep)
    .filter((c) => c.name !== uploaded.name)
    .reverse()
    .map((c) => c.name);
  return { doomed, refused: null };
}
