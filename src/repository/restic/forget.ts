// `restic forget --json`: applies the retention policy per group and returns the ids it removed.
// Grouping is by host and tags, never paths: each generation is staged in its own folder, and
// grouping by paths made every snapshot its own group in Kazma (199 snapshots, none ever removed).
import { runRestic, type ResticRuntime } from './run.js';
import { forgetGroups } from './messages.js';
import { tagFlag } from './flags.js';
import type { ResticRepo } from './repo.js';

export interface ForgetOptions {
  keepHourly: number;
  keepDaily: number;
  keepWeekly: number;
  keepMonthly: number;
  groupBy: 'host,tags' | 'host' | 'tags';
  /** Only snapshots carrying all of these tags are considered. */
  tags: readonly string[];
  /** Also delete the data no snapshot references any more (takes an exclusive lock). */
  prune: boolean;
  /** Only say what would go (`--dry-run`): nothing is removed. */
  dryRun?: boolean;
  signal?: AbortSignal;
}

export interface ForgetResult {
  removed: string[];
  kept: string[];
  /** The removed snapshots' times (ISO), by id. */
  removedTimes: Record<string, string>;
}

export async function forget(rt: ResticRuntime, repo: ResticRepo, options: ForgetOptions): Promise<ForgetResult> {
  if (options.tags.length === 0) throw new Error('forget needs the constant Sanad tags, so it never touches snapshots Sanad did not make.');
  const args = [
    'forget',
    `--keep-hourly=${options.keepHourly}`,
    `--keep-daily=${options.keepDaily}`,
    `--keep-weekly=${options.keepWeekly}`,
    `--keep-monthly=${options.keepMonthly}`,
    `--group-by=${options.groupBy}`,
    tagFlag(options.tags),
  ];
  if (options.dryRun) args.push('--dry-run');
  else if (options.prune) args.push('--prune');

  const seen: { result?: ForgetResult } = {};
  await runRestic(rt, repo, {
    args,
    json: true,
    signal: options.signal,
    // With --prune, prune's text report follows the JSON line; it lands in the tail for the log.
    onJson: (value) => {
      const parsed = forgetGroups.safeParse(value);
      if (!parsed.success) return false;
      seen.result = {
        removed: parsed.data.flatMap((g) => (g.remove ?? []).map((s) => s.id)),
        kept: parsed.data.flatMap((g) => (g.keep ?? []).map((s) => s.id)),
        removedTimes: Object.fromEntries(parsed.data.flatMap((g) => (g.remove ?? []).map((s) => [s.id, s.time]))),
      };
      return true;
    },
  });
  if (seen.result === undefined) {
    // No matching snapshot at all: restic prints nothing, which is an empty result, not an error.
    return { removed: [], kept: [], removedTimes: {} };
  }
  return seen.result;
}
