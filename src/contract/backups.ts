// The backup answers of the admin API, written once: the server builds them with these types and
// the GUI parses them with these schemas, so a changed field breaks both builds.
// GET /admin/backups/status, GET /admin/backups, GET /admin/maintenance, GET|POST /admin/restore/generations.
import { z } from 'zod/v3';
import { Alert } from './alerts.js';
import { Said } from './said.js';
import { listOf } from './list.js';
import { RunStatus } from './run-status.js';
import { SettingsSchema } from './settings.js';

export const RepositoryStatus = z.object({
  name: z.string(),
  type: z.string(),
  location: z.string(),
  enabled: z.boolean(),
  last_ok_at: z.number().nullable(),
  last_ok_age_s: z.number().nullable(),
  last_error: z.string().nullable(),
  /** The same failure as a saying, when Sanad words it (its open alert's): the GUI shows it in the reader's language. */
  last_error_said: Said.nullable(),
  failing: z.boolean(),
});
export type RepositoryStatus = z.infer<typeof RepositoryStatus>;

/** A running backup: making the generation (its step), or sending it to one repository; or "Copy to
 *  offsite now" copying the newest generation to one repository. */
export const BackupPhase = z.union([
  z.object({ phase: z.literal('generation'), step: z.string() }),
  z.object({ phase: z.literal('copy'), repository: z.string() }),
  z.object({
    phase: z.literal('upload'),
    repository: z.string(),
    percent: z.number(),
    files_done: z.number(),
    total_files: z.number(),
    bytes_done: z.number(),
    total_bytes: z.number(),
  }),
]);
export type BackupPhase = z.infer<typeof BackupPhase>;

/** A backup run's status is every run's (runs.ts): `interrupted` when Sanad stopped while it went. */
export const BackupRunStatus = RunStatus;
export type BackupRunStatus = z.infer<typeof BackupRunStatus>;

/** The compressed offsite copy a run sent (when one is set up): where, its name, what was pruned. */
export const OffsiteCopyOutcome = z.object({
  destination: z.string(),
  ok: z.boolean(),
  name: z.string().nullable(),
  deleted: z.array(z.string()),
  error: z.string().nullable(),
});
export type OffsiteCopyOutcome = z.infer<typeof OffsiteCopyOutcome>;

export const BackupRun = z.object({
  id: z.number(),
  generation: z.number().nullable(),
  trigger: z.string(),
  status: BackupRunStatus,
  error: z.string().nullable(),
  started_at: z.number(),
  finished_at: z.number().nullable(),
  /** Only in GET /admin/backups; null when no offsite copy is set up (or the run ended before it). */
  offsite_copy: OffsiteCopyOutcome.nullable().optional(),
});
export type BackupRun = z.infer<typeof BackupRun>;

export const JobKindName = z.enum(['backup', 'maintenance', 'drill', 'restore', 'passphrase-rotation', 'vault-rotation', 'inspect', 'pull']);

/** The schedule and health of backups. Whether one runs, waits or how far it is: GET /admin/runs?open=true. */
export const BackupStatus = z.object({
  paused: z.boolean(),
  /** Hours between scheduled backups (24 when they run at a time of day). */
  interval_hours: z.number(),
  /** "HH:MM" when the schedule is one backup a day at that local time, else null (every interval_hours). */
  time_of_day: z.string().nullable(),
  /** Why the due scheduled backup waits: on battery, or on a metered connection (the person's settings). */
  held_by: z.enum(['battery', 'metered']).nullable(),
  next_run_at: z.number().nullable(),
  last_run: BackupRun.nullable(),
  last_ok_at: z.number().nullable(),
  repositories: z.array(RepositoryStatus),
  alerts: z.array(Alert),
});
export type BackupStatus = z.infer<typeof BackupStatus>;

/** restic's summary of one copy: what it read and what it added (an unchanged model adds nothing). */
export const BackupCopySummary = z.object({
  files_new: z.number(),
  files_changed: z.number(),
  files_unmodified: z.number(),
  data_added: z.number(),
  total_bytes_processed: z.number(),
  total_files_processed: z.number(),
});
export type BackupCopySummary = z.infer<typeof BackupCopySummary>;
export const BackupCopy = z.object({
  run_id: z.number(),
  repository: z.string(),
  ok: z.number(),
  snapshot_id: z.string().nullable(),
  error: z.string().nullable(),
  finished_at: z.number(),
  summary: BackupCopySummary.nullable(),
});
export type BackupCopy = z.infer<typeof BackupCopy>;
export const BackupRuns = z.object({ object: z.literal('list'), data: z.array(BackupRun), copies: z.array(BackupCopy) });
export type BackupRuns = z.infer<typeof BackupRuns>;

/** POST /admin/backups: started now, attached to the one already running, or queued after it;
 *  `run_id` is that run's (GET /admin/runs/{id}, GET /admin/events?run={id}). */
export const BackupStarted = z.object({ run_id: z.number(), started: z.boolean(), attached: z.boolean(), queued: z.boolean() });
export type BackupStarted = z.infer<typeof BackupStarted>;

/** What "Copy to offsite now" did for one offsite repository: copied the newest generation there,
 *  found it already there, or failed (the saying says why, in the reader's language). */
export const OffsiteCatchUpTarget = z.object({
  name: z.string(),
  status: z.enum(['copied', 'up_to_date', 'failed']),
  snapshot_id: z.string().nullable(),
  said: Said.and(z.object({ detail: z.string() })),
});
export type OffsiteCatchUpTarget = z.infer<typeof OffsiteCatchUpTarget>;

/** POST /admin/backups/offsite-copy: the generation copied (null: none yet), each target, and a
 *  saying when there was nothing to do at all (no local backup yet, no offsite repository). */
export const OffsiteCatchUp = z.object({
  generation: z.number().nullable(),
  targets: z.array(OffsiteCatchUpTarget),
  said: Said.and(z.object({ detail: z.string() })).nullable(),
});
export type OffsiteCatchUp = z.infer<typeof OffsiteCatchUp>;

export const Generation = z.object({
  generation: z.number(),
  snapshot_id: z.string(),
  repo: z.string(),
  time: z.string(),
  size_bytes: z.number().nullable(),
  host: z.string(),
});
export type Generation = z.infer<typeof Generation>;
export const Generations = listOf(Generation);

export const MaintenanceStep = z.enum(['unlock', 'forget', 'check']);
export const MaintenanceEntry = z.object({
  started_at: z.number(),
  finished_at: z.number(),
  ok: z.boolean(),
  steps: z.array(MaintenanceStep),
  failed_step: MaintenanceStep.nullable(),
  removed: z.number().nullable(),
  kept: z.number().nullable(),
  error: z.string().nullable(),
});
export type MaintenanceEntry = z.infer<typeof MaintenanceEntry>;
export const Maintenance = z.object({
  object: z.literal('list'),
  retention: z.object({ hourly: z.number(), daily: z.number(), weekly: z.number(), monthly: z.number() }),
  every_hours: z.number(),
  data: z.array(
    z.object({
      repository: z.string(),
      enabled: z.boolean(),
      ok_at: z.number().nullable(),
      failed_at: z.number().nullable(),
      due_after: z.number().nullable(),
      last: MaintenanceEntry.nullable(),
      log: z.array(MaintenanceEntry),
    }),
  ),
});
export type Maintenance = z.infer<typeof Maintenance>;

/** The backup target everyone shows (Overview, timeline, tray, doctor): a good backup at least
 *  every two intervals, so one run missed (asleep, on battery) is not yet "behind". */
export function backupTargetHours(intervalHours: number): number {
  return intervalHours * 2;
}

/** POST /admin/retention/preview: what maintenance would forget in each enabled repository under a
 *  proposed policy (restic's own `forget --dry-run`); nothing is changed. */
export const RetentionPreviewRequest = SettingsSchema.pick({
  retention_keep_hourly: true,
  retention_keep_daily: true,
  retention_keep_weekly: true,
  retention_keep_monthly: true,
})
  .partial()
  .strict();
export const RetentionPreview = z.object({
  policy: RetentionPreviewRequest.required(),
  repositories: z.array(
    z.object({
      name: z.string(),
      /** The snapshots that would go, oldest first (ISO times). */
      remove: z.array(z.object({ snapshot_id: z.string(), time: z.string() })),
      keep: z.number(),
      /** Why this repository could not be asked (unreachable, locked, its disk not connected), or null. */
      error: z.string().nullable(),
      /** The same as a saying, for the GUI to word in the reader's language. */
      error_said: Said.nullable().optional(),
    }),
  ),
});
export type RetentionPreview = z.infer<typeof RetentionPreview>;
