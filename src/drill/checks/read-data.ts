// `read-data` (deep): `restic check --read-data-subset=n/t` with n rotating (read-subset.ts), so
// every pack is read once in t deep drills; `read-data:recheck` reads again each subset that found
// damage before, until it reads clean. Damage while a live lock appeared meanwhile (a backup
// started during the check) is UNVERIFIED: restic may have seen a half-written pack.
// A subset that holds no pack reads nothing, and a check that read nothing never passes: the
// drill moves on through the rotation (an empty subset is covered by definition) until a subset
// with at least one pack has been read, and a repository with no pack at all is UNVERIFIED. Which
// subsets are empty is known from the pack list (restic groups a pack by its id's first byte mod
// t), so normally one `restic check` runs; should restic ever group otherwise, reading on one
// subset at a time still finds a pack.
import type { CheckResult } from '../../backup/restic/check.js';
import { unixSeconds } from '../../clock.js';
import { recordSubsets, type SubsetPlan } from '../read-subset.js';
import { looksDamaged, resticOutcome } from '../restic-outcome.js';
import { fail, pass, unverified, type CheckOutcome } from '../verdict.js';
import { describeLock, liveLocks } from './repo-lock.js';
import { signalOf, type RepoContext } from './repo-context.js';

interface SubsetRead {
  outcome: CheckOutcome;
  /** A clean read of a subset that holds no pack: nothing was verified. */
  empty: boolean;
  totalPacks: number | null;
}

async function readOne(ctx: RepoContext, subset: string): Promise<SubsetRead> {
  const result = await ctx.restic.check(ctx.target, { readDataSubset: subset, ...signalOf(ctx) });
  if (result.ok) {
    const read = result.read ? `${result.read.packs} of ${result.read.totalPacks} data packs` : 'its data packs';
    return { outcome: pass(`subset ${subset}: read ${read}, no errors`), empty: result.read?.packs === 0, totalPacks: result.read?.totalPacks ?? null };
  }
  return { outcome: await damageOutcome(ctx, subset, result), empty: false, totalPacks: result.read?.totalPacks ?? null };
}

async function damageOutcome(ctx: RepoContext, subset: string, result: Extract<CheckResult, { ok: false }>): Promise<CheckOutcome> {
  if (!result.damaged) return resticOutcome(result.error, { doing: `Reading subset ${subset}`, hadBackups: ctx.hadBackups });
  const live = await liveLocks(ctx).catch(() => []);
  const lock = live[0];
  if (lock) return unverified(`subset ${subset} reported errors while the repository was in use (${describeLock(lock)}); run the deep drill again when it is idle.`);
  const line = result.error.stderrTail.find((l) => looksDamaged([l]) && !/^Fatal:/.test(l)) ?? result.error.stderrTail.find((l) => l.trim() !== '') ?? result.error.message;
  const read = result.read ? `read ${result.read.packs} of ${result.read.totalPacks} data packs, ` : '';
  return fail(`subset ${subset}: ${read}restic found damage (${line.trim()}); make a new backup to a fresh repository and keep this one until it is replaced.`);
}

/** The subsets (n of t) that hold at least one pack; null when the pack list cannot be read. */
async function subsetsWithPacks(ctx: RepoContext, t: number): Promise<Set<number> | null> {
  const packs = await ctx.restic.listIds(ctx.target, 'packs', signalOf(ctx)).catch(() => null);
  return packs === null ? null : new Set(packs.map((id) => (Number.parseInt(id.slice(0, 2), 16) % t) + 1));
}

/** The rotating subset (and the ones after it while they hold no pack); records the rotation and the outcome. */
export async function checkReadData(ctx: RepoContext, plan: SubsetPlan): Promise<CheckOutcome> {
  const skipped: string[] = [];
  let n = plan.n;
  const held = await subsetsWithPacks(ctx, plan.t);
  while (held !== null && held.size > 0 && !held.has(n) && skipped.length < plan.t - 1) {
    skipped.push(`${n}/${plan.t}`);
    n = (n % plan.t) + 1;
  }
  let read = await readOne(ctx, `${n}/${plan.t}`);
  // At most one full turn: some subset holds a pack whenever the repository has one.
  while (read.empty && read.totalPacks !== 0 && skipped.length < plan.t - 1) {
    skipped.push(`${n}/${plan.t}`);
    n = (n % plan.t) + 1;
    read = await readOne(ctx, `${n}/${plan.t}`);
  }
  const subset = `${n}/${plan.t}`;
  let outcome = read.outcome;
  if (read.empty) {
    outcome = read.totalPacks === 0
      ? unverified('the repository holds no data packs yet, so there was nothing to read; make a backup, then run the deep drill again.')
      : unverified(`subset ${subset} read 0 data packs, so nothing was verified; run the deep drill again.`);
  } else if (skipped.length > 0 && outcome.status === 'pass') {
    outcome = pass(`${outcome.detail} (${skipped.length === 1 ? `subset ${skipped[0]} holds` : `subsets ${skipped[0]} to ${skipped.at(-1)} hold`} no pack)`);
  }
  const rotated = outcome.status === 'unverified' ? null : n;
  recordSubsets(ctx.deps.db, ctx.repo.name, plan.t, { [subset]: outcome.status }, rotated, unixSeconds(ctx.deps.clock));
  return outcome;
}

/** Every earlier damaged subset again; one outcome for all of them (the worst, each named). */
export async function checkRecheck(ctx: RepoContext, plan: SubsetPlan): Promise<CheckOutcome> {
  const outcomes: Record<string, CheckOutcome['status']> = {};
  const details: CheckOutcome[] = [];
  for (const subset of plan.recheck) {
    const { outcome } = await readOne(ctx, subset);
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
