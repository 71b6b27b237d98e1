// The restore answers of the admin API, written once (server types, GUI schemas):
// POST /admin/restore, GET /admin/restore/{id}.
import { z } from 'zod/v3';
import { RunStatus } from './run-status.js';
import { JobKindName } from './backups.js';
import { SaidParams } from './said.js';

/** `detail` is English; `code` and `params` let the GUI word it in the reader's language. */
export const RestoreCheck = z.object({ name: z.string(), ok: z.boolean(), code: z.string(), params: SaidParams, detail: z.string() });
export type RestoreCheck = z.infer<typeof RestoreCheck>;

export const RestoreResult = z.object({
  ok: z.boolean(),
  generation: z.number().nullable(),
  snapshot_id: z.string().nullable(),
  /** When the restored snapshot was taken (ISO), once it was found. */
  snapshot_time: z.string().nullable(),
  repo: z.string(),
  target: z.string(),
  checks: z.array(RestoreCheck),
  /** What to run next (only when ok). */
  next_step: z.string().nullable(),
  /** One sentence: what failed and what state the target was left in (only when not ok). */
  error: z.string().nullable(),
});
export type RestoreResult = z.infer<typeof RestoreResult>;

export const RestoreProgress = z.object({
  phase: z.string(),
  percent: z.number().optional(),
  bytes_done: z.number().optional(),
  bytes_total: z.number().optional(),
});

/** Every run's status (runs.ts): `queued` while it waits for a backup or maintenance; `interrupted`
 *  when Sanad stopped while it ran (its target was put back at the next start). */
export const RestoreJobStatus = RunStatus;
export type RestoreJobStatus = z.infer<typeof RestoreJobStatus>;

export const RestoreJob = z.object({
  /** The run's id (GET /admin/runs/{id}). */
  id: z.number(),
  status: RestoreJobStatus,
  target: z.string(),
  repo: z.string(),
  /** Unix ms. */
  started_at: z.number(),
  finished_at: z.number().nullable(),
  progress: RestoreProgress.nullable(),
  result: RestoreResult.nullable(),
  /** Why it ended without a result (interrupted, or it failed before its checklist). */
  error: z.string().nullable(),
  waiting_for: z.array(JobKindName),
});
export type RestoreJob = z.infer<typeof RestoreJob>;

export const RestoreStarted = z.object({ id: z.number(), status: RestoreJobStatus });
export type RestoreStarted = z.infer<typeof RestoreStarted>;

/** POST /admin/restore/check-target: 200 either way; a refusal is an answer, not a failed request. */
export const TargetAnswer = z.object({
  ok: z.boolean(),
  target: z.string(),
  path: z.string().nullable(),
  state: z.enum(['absent', 'empty']).nullable(),
  refusal: z.string().nullable(),
  reason: z.string().nullable(),
  checks: z.array(RestoreCheck),
});
export type TargetAnswer = z.infer<typeof TargetAnswer>;

/** POST /admin/restore/{id}/open: the service restarts on the restored data; sign in there. */
export const OpenRestored = z.object({ restore_id: z.number(), data_dir: z.string(), login_url: z.string() });
export type OpenRestored = z.infer<typeof OpenRestored>;
