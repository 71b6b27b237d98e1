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
import type { CheckResult } from '../../repository/restic/check.js';
import { unixSeconds } from '../../clock.js';
import { say } from '../../contract/said/index.js';
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
    const said = result.read
      ? say('drill.read.ok', { subset, packs: result.read.packs, total: result.read.totalPacks })
      : say('drill.read.ok_unknown', { subset });
    return { outcome: pass(said), empty: result.read?.packs === 0, totalPacks: result.read?.totalPacks ?? null };
  }
  return { outcome: await damageOutcome(ctx, subset, result), empty: false, totalPacks: result.read?.totalPacks ?? null };
}

async function damageOutcome(ctx: RepoContext, subset: string, result: Extract<CheckResult, { ok: false }>): Promise<CheckOutcome> {
  if (!result.damaged) return resticOutcome(result.error, { doing: say('drill.doing_subset', { subset }), hadBackups: ctx.hadBackups });
  const live = await liveLocks(ctx).catch(() => []);
  const lock = live[0];
  if (lock) return unverified(say('drill.read.in_use', { subset, lock: [describeLock(lock)] }));
  const line =
    result.error.stderrTail.find((l) => looksDamaged([l]) && !/^Fatal:/.test(l)) ??
    result.error.stderrTail.find((l) => l.trim() !== '') ??
    result.error.message;
  return fail(
    result.read
      ? say('drill.read.damage', { subset, packs: result.read.packs, total: result.read.totalPacks, line: line.trim() })
      : say('drill.read.damage_unknown', { subset, line: line.trim() }),
  );
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
    outcome = read.totalPacks === 0 ? unverified(say('drill.read.no_packs')) : unverified(say('drill.read.read_nothing', { subset }));
  } else if (skipped.length > 0 && outcome.status === 'pass') {
    outcome = pass(say('drill.read.ok_skipped', { read: [outcome], count: skipped.length, first: skipped[0] ?? '', last: skipped.at(-1) ?? '' }));
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
  const reads = details.map(({ code, params }) => ({ code, params }));
  if (worst) return { status: worst.status, ...say('drill.read.recheck_damage', { reads }) };
  return pass(say('drill.read.recheck_ok', { reads }));
}
