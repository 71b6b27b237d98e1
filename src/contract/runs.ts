// The one record of long-running runs as the admin API shows it (jobs/runs.ts keeps it):
// GET /admin/runs, GET /admin/runs/{id}. Every backup, its maintenance, "Copy to offsite now", drill
// and restore is a run with one status enum and times in Unix milliseconds; its kind's details ride
// beside it (`backup`, `drill`, `restore`), read from that kind's own table.
import { z } from 'zod/v3';
import { BackupPhase, JobKindName } from './backups.js';
import { DrillProgress } from './drills.js';
import { listOf } from './list.js';
import { PullProgress } from './pulls.js';
import { RestoreProgress } from './restore.js';
import { RunKind, RunStatus } from './run-status.js';

export { RunKind, RunStatus } from './run-status.js';

/** A running run's latest progress, as its kind reports it (a backup's phase, a drill's check, a
 *  download's bytes, a restore's step; a pull's before a restore's, whose open shape would take
 *  it); null while it waits and once it ended. Written to the run at most about once a
 *  second and told as `run.updated` (src/contract/admin-events.ts). */
export const RunProgress = z.union([BackupPhase, DrillProgress, PullProgress, RestoreProgress]);
export type RunProgress = z.infer<typeof RunProgress>;

export const Run = z.object({
  id: z.number(),
  kind: RunKind,
  trigger: z.string(),
  status: RunStatus,
  error: z.string().nullable(),
  generation: z.number().nullable(),
  /** Unix ms: when it was asked for while queued, when it started once running. */
  started_at: z.number(),
  ended_at: z.number().nullable(),
  progress: RunProgress.nullable(),
  /** While queued: the kinds of work it waits for to end (a backup behind a restore…); else empty. */
  waiting_for: z.array(JobKindName),
});
export type Run = z.infer<typeof Run>;

export const Runs = listOf(Run);
export type Runs = z.infer<typeof Runs>;
