// The one record of long-running runs as the admin API shows it (jobs/runs.ts keeps it):
// GET /admin/runs, GET /admin/runs/{id}. Every backup, drill and restore is a run with one status
// enum and times in Unix milliseconds; its kind's details ride beside it (`backup`, `drill`,
// `restore`), read from that kind's own table.
import { z } from 'zod/v3';
import { listOf } from './list.js';

export const RunKind = z.enum(['backup', 'drill', 'restore']);
export type RunKind = z.infer<typeof RunKind>;

/** `queued`: asked for, waiting for another job to end; `interrupted`: Sanad stopped (a crash, a
 *  kill, Quit) while it ran; `cancelled`: it ended before it started. */
export const RunStatus = z.enum(['queued', 'running', 'ok', 'partial', 'failed', 'interrupted', 'cancelled']);
export type RunStatus = z.infer<typeof RunStatus>;

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
});
export type Run = z.infer<typeof Run>;

export const Runs = listOf(Run);
export type Runs = z.infer<typeof Runs>;
