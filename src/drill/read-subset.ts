// The deep drill's rotation through `restic check --read-data-subset=n/t`, kept per repository in
// the store: n = (previous % t) + 1, so t deep drills read every pack once (restic puts each pack
// in exactly one of the t groups). A random x% never guarantees that. A subset that found damage
// is remembered and read again by every later deep drill until it reads clean, so moving on to the
// next subset can never make a damaged repository look healthy.
import { parseJsonColumn } from '../store/json-column.js';
import { z } from 'zod/v3';
import type { Db } from '../store/open.js';
import { readConfigValue, writeConfigValue } from '../store/settings.js';

export const configKey = (repo: string): string => `drill_read_subset:${repo}`;

const State = z.object({
  /** The last subset read to the end (pass or damage), as n of t. */
  last: z.number().int().min(1),
  total: z.number().int().min(1),
  /** "n/t" subsets that found damage and have not read clean since. */
  damaged: z.array(z.string().regex(/^\d+\/\d+$/)).default([]),
});
type State = z.infer<typeof State>;

function readState(db: Db, repo: string): State | null {
  return parseJsonColumn(State, readConfigValue(db, configKey(repo)));
}

export interface SubsetPlan {
  n: number;
  t: number;
  /** The rotating subset, "n/t". */
  subset: string;
  /** Earlier damaged subsets to read again (never the rotating one twice). */
  recheck: string[];
}

/** The subset this deep drill reads. A changed t starts the rotation again at 1. */
export function planSubset(db: Db, repo: string, t: number): SubsetPlan {
  const state = readState(db, repo);
  const n = state !== null && state.total === t ? (state.last % t) + 1 : 1;
  const subset = `${n}/${t}`;
  return { n, t, subset, recheck: (state?.damaged ?? []).filter((s) => s !== subset) };
}

/**
 * Records what a deep drill read to the end: each subset's outcome (damage stays listed until the
 * subset reads clean) and, when the rotating subset completed (pass or damage), that the rotation
 * moved on to `rotatedTo`. An unverified read leaves the rotation where it was: the same n next time.
 */
export function recordSubsets(
  db: Db,
  repo: string,
  t: number,
  outcomes: Record<string, 'pass' | 'fail' | 'unverified'>,
  rotatedTo: number | null,
  nowS: number,
): void {
  const state = readState(db, repo);
  const damaged = new Set(state?.damaged ?? []);
  for (const [subset, outcome] of Object.entries(outcomes)) {
    if (outcome === 'fail') damaged.add(subset);
    if (outcome === 'pass') damaged.delete(subset);
  }
  // Not rotated: keep what makes planSubset answer the same n again (last = t gives n = 1).
  const stay = state !== null && state.total === t ? state.last : t;
  const next: State = { last: rotatedTo ?? stay, total: t, damaged: [...damaged].sort() };
  writeConfigValue(db, configKey(repo), JSON.stringify(next), nowS);
}
