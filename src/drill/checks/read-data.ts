// `read-data` (deep): `restic check --read-data-subset=n/t` with n rotating (read-subset.ts), so
// every pack is read once in t deep drills; `read-data:recheck` reads again each subset that found
// damage before, until it reads clean. Damage while a live lock appeared meanwhile (a backup
// started during the check) is UNVERIFIED: restic may have seen a half-written pack.
import { unixSeconds } from '../../clock.js';
import { recordSubsets, type SubsetPlan } from '../read-subset.js';
import { looksDamaged, resticOutcome } from '../restic-outcome.js';
import { fail, pass, unverified, type CheckOutcome } from '../verdict.js';
import { describeLock, liveLocks } from './repo-lock.js';
import { signalOf, type RepoContext } from './repo-context.js';

async function readSubset(ctx: RepoContext, subset: string): Promise<CheckOutcome> {
  const result = await ctx.restic.check(ctx.target, { readDataSubset: subset, ...signalOf(ctx) });
  if (result.ok) {
    const read = result.read ? `${result.read.packs} of ${result.read.totalPacks} data packs` : 'its data packs';
    return pass(`subset ${subset}: read ${read}, no errors`);
  }
  if (!result.damaged) return resticOutcome(result.error, { doing: `Reading subset ${subset}`, hadBackups: ctx.hadBackups });
  const live = await liveLocks(ctx).catch(() => []);
  const lock = live[0];
  if (lock) return unverified(`subset ${subset} reported errors while the repository was in use (${describeLock(lock)}); run the deep drill again when it is idle.`);
  const line = result.error.stderrTail.find((l) => looksDamaged([l]) && !/^Fatal:/.test(l)) ?? result.error.stderrTail.find((l) => l.trim() !== '') ?? result.error.message;
  const read = result.read ? `read ${result.read.packs} of ${result.read.totalPacks} data packs, ` : '';
  return fail(`subset ${subset}: ${read}restic found damage (${line.trim()}); make a new backup to a fresh repository and keep this one until it is replaced.`);
}

/** The rotating subset; records the rotation and the outcome. */
export async function checkReadData(ctx: RepoContext, plan: SubsetPlan): Promise<CheckOutcome> {
  const outcome = await readSubset(ctx, plan.subset);
  const rotated = outcome.status === 'unverified' ? null : plan.n;
  recordSubsets(ctx.deps.db, ctx.repo.name, plan.t, { [plan.subset]: outcome.status }, rotated, unixSeconds(ctx.deps.clock));
  return outcome;
}

/** Every earlier damaged subset again; one outcome for all of them (the worst, each named). */
export async function checkRecheck(ctx: RepoContext, plan: SubsetPlan): Promise<CheckOutcome> {
  const outcomes: Record<string, CheckOutcome['status']> = {};
  const details: CheckOutcome[] = [];
  for (const subset of plan.recheck) {
    const outcome = await readSubset(ctx, subset);
    outcomes[subset] = outcome.status;
    details.push(outcome);
  }
  // Only the rechecked subsets' outcomes: the rotation itself was recorded by checkReadData.
  recordSubsets(ctx.deps.db, ctx.repo.name, plan.t, outcomes, null, unixSeconds(ctx.deps.clock));
  const worst = details.find((d) => d.status === 'fail') ?? details.find((d) => d.status === 'unverified');
  const text = details.map((d) => d.detail).join('; ');
  if (worst) return { status: worst.status, detail: `damage found earlier, read again: ${text}` };
  return pass(`subsets that found damage earlier now read clean: ${text}`);
}
