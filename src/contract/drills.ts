// The drill answers of the admin API, written once (server types, GUI schemas):
// GET /admin/drills, GET /admin/drills/status, POST /admin/drills.
import { z } from 'zod/v3';
import { JobKindName } from './backups.js';
import { SaidParams } from './said.js';
import { RunStatus } from './run-status.js';

export const CheckStatus = z.enum(['pass', 'fail', 'unverified']);
export type CheckStatus = z.infer<typeof CheckStatus>;
export const Verdict = z.enum(['PASS', 'FAIL', 'UNVERIFIED']);
export type Verdict = z.infer<typeof Verdict>;
export const DrillKind = z.enum(['daily', 'deep']);
export type DrillKind = z.infer<typeof DrillKind>;

/** `detail` is the English sentence; `code` and `params` let the GUI word it in the reader's language. */
export const DrillCheck = z.object({ name: z.string(), status: CheckStatus, code: z.string(), params: SaidParams, detail: z.string() });
export type DrillCheck = z.infer<typeof DrillCheck>;

export const DrillRun = z.object({
  id: z.number(),
  kind: DrillKind,
  trigger: z.string(),
  repo: z.string().nullable(),
  /** Every run's status (runs.ts): a drill that ran to its end is `ok`, whatever its verdict. */
  status: RunStatus,
  verdict: Verdict.nullable(),
  checks: z.array(DrillCheck),
  started_at: z.number(),
  finished_at: z.number().nullable(),
});
export type DrillRun = z.infer<typeof DrillRun>;

/** `repo` is null for a check of its own (the offsite copy); a progress event may leave it out. */
export const DrillProgress = z.object({ repo: z.string().nullable().optional(), check: z.string(), index: z.number(), total: z.number() });
export type DrillProgress = z.infer<typeof DrillProgress>;

export const DrillSummary = z.object({
  id: z.number(),
  kind: DrillKind,
  trigger: z.string(),
  verdict: Verdict.nullable(),
  started_at: z.number(),
  finished_at: z.number().nullable(),
});
export type DrillSummary = z.infer<typeof DrillSummary>;

/** The drills' schedule and last verdicts. Whether one runs and its check: GET /admin/runs?open=true. */
export const DrillStatus = z.object({
  paused: z.boolean(),
  last: z.object({ daily: DrillSummary.nullable(), deep: DrillSummary.nullable() }),
  /** Unix seconds; null while paused. */
  next_drill_at: z.number().nullable(),
  next_deep_at: z.number().nullable(),
});
export type DrillStatus = z.infer<typeof DrillStatus>;

export const DrillStarted = z.object({ id: z.number(), kind: DrillKind, waiting_for: z.array(JobKindName) });
export type DrillStarted = z.infer<typeof DrillStarted>;
