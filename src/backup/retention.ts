// The retention policy people set (Settings: how many hourly, daily, weekly and monthly
// generations each repository keeps), and its preview: what maintenance would forget under a
// proposed policy, asked of restic itself (`forget --dry-run`, the same rule the real run applies),
// so what the preview names is what goes.
import type { Settings } from '../contract/settings.js';
import type { ForgetOptions, Restic, ResticRepo } from '../repository/restic/index.js';

/** The tag every Sanad snapshot carries; forget considers only these. */
export const RETENTION_TAGS = ['sanad'] as const;

export type RetentionCounts = Pick<Settings, 'retention_keep_hourly' | 'retention_keep_daily' | 'retention_keep_weekly' | 'retention_keep_monthly'>;

/** Grouped by host and the constant `sanad` tag, never by paths: each generation is staged in its
 *  own folder, so every snapshot would be its own group and nothing would ever go (Kazma: 199). */
export function retentionPolicy(counts: RetentionCounts): Omit<ForgetOptions, 'prune' | 'signal'> {
  return {
    keepHourly: counts.retention_keep_hourly,
    keepDaily: counts.retention_keep_daily,
    keepWeekly: counts.retention_keep_weekly,
    keepMonthly: counts.retention_keep_monthly,
    groupBy: 'host,tags',
    tags: RETENTION_TAGS,
  };
}

export interface RepositoryRetentionPreview {
  /** The snapshots this policy would forget, oldest first. */
  remove: Array<{ snapshot_id: string; time: string }>;
  keep: number;
}

/** What maintenance would forget in this repository under `counts`; nothing is changed. */
export async function previewRetention(restic: Restic, repo: ResticRepo, counts: RetentionCounts, signal?: AbortSignal): Promise<RepositoryRetentionPreview> {
  const result = await restic.forget(repo, { ...retentionPolicy(counts), prune: false, dryRun: true, ...(signal ? { signal } : {}) });
  const remove = result.removed.map((id) => ({ snapshot_id: id, time: result.removedTimes[id] ?? '' })).sort((a, b) => a.time.localeCompare(b.time));
  return { remove, keep: result.kept.length };
}
