// A drill that runs out of room in its scratch folder has proven nothing either way: a database
// cut short by a full disk reads as damaged, but the backup is not. Such an outcome is
// UNVERIFIED, naming the disk, never FAIL.
import { isNearlyFull, isOutOfSpace, outOfSpaceSentence } from '../store/disk.js';
import { unverified, type CheckOutcome } from './verdict.js';

export function scratchFullSentence(dir: string): string {
  return `${outOfSpaceSentence(dir, "the drill's scratch folder")} The backup could not be checked (no sign of damage, no proof either); free some space and run the drill again.`;
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
