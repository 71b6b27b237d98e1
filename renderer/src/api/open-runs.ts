// What runs now: the backups, drills, restores, maintenance and offsite copies asked for and not
// ended, with their progress (GET /admin/runs?open=true). Read once, then kept by the live events
// (live-events.ts): `run.updated` puts a run's new row in, `run.finished` takes it out. The one
// place every screen and its progress bar learns whether something runs.
import { useQuery } from '@tanstack/react-query';
import { api } from './http';
import { Runs, type Run, type RunKind } from '../../../src/contract/runs';

export const OPEN_RUNS_KEY = ['runs', 'open'] as const;

export const useOpenRuns = () => useQuery({ queryKey: OPEN_RUNS_KEY, queryFn: () => api('GET', '/admin/runs?open=true', Runs).then((l) => l.data) });

/** The open run of a kind (the running one before a queued one), or null. */
export function openRunOf(runs: readonly Run[] | undefined, kind: RunKind): Run | null {
  const mine = (runs ?? []).filter((r) => r.kind === kind);
  return mine.find((r) => r.status === 'running') ?? mine[0] ?? null;
}

export function useOpenRun(kind: RunKind): Run | null {
  return openRunOf(useOpenRuns().data, kind);
}

/** The open runs once `run` changed: put in (newest first) while open, taken out once ended. */
export function withRun(runs: readonly Run[] | undefined, run: Run): Run[] {
  const others = (runs ?? []).filter((r) => r.id !== run.id);
  if (run.status !== 'queued' && run.status !== 'running') return others;
  return [...others, run].sort((a, b) => b.id - a.id);
}
