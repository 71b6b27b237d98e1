// A drill that runs out of room in its scratch folder has proven nothing either way: a database
// cut short by a full disk reads as damaged, but the backup is not. Such an outcome is
// UNVERIFIED, naming the disk, never FAIL.
import { say } from '../contract/said/index.js';
import type { Spoken } from '../contract/said.js';
import { freeSpace, isNearlyFull, isOutOfSpace } from '../store/disk.js';
import { unverified, type CheckOutcome } from './verdict.js';

export function scratchFullSentence(dir: string): Spoken {
  const space = freeSpace(dir);
  return space ? say('drill.scratch_full', { path: dir, free_bytes: space.free }) : say('drill.scratch_full_none', { path: dir });
}

/** Runs a check that writes into `dir`; a failure while that disk is full becomes UNVERIFIED. */
export async function unlessOutOfSpace(dir: string, check: () => Promise<CheckOutcome>): Promise<CheckOutcome> {
  let outcome: CheckOutcome;
  try {
    outcome = await check();
  } catch (err) {
    if (isOutOfSpace(err)) return unverified(scratchFullSentence(dir));
    throw err;
  }
  if (outcome.status !== 'pass' && (isOutOfSpace(outcome.detail) || isNearlyFull(dir))) return unverified(scratchFullSentence(dir));
  return outcome;
}
