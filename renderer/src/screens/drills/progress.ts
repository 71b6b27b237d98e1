// From a `drill.progress` event (or the running drill's `progress` in GET /admin/drills/status) to
// the ProgressBar: the check now running, and how many of the planned checks are done. `index` is
// the 1-based position of the check that is starting, so index - 1 checks are done.
import type { ProgressValue } from '../../components/ProgressBar';
import { DrillProgress } from './api';

export function drillProgressValue(data: unknown, describe: (check: string, index: number, total: number) => string): ProgressValue | null {
  const parsed = DrillProgress.safeParse(data);
  if (!parsed.success) return null;
  const { check, index, total } = parsed.data;
  if (total <= 0) return { fraction: null, step: describe(check, index, total) };
  return { fraction: Math.max(0, index - 1) / total, step: describe(check, index, total) };
}
