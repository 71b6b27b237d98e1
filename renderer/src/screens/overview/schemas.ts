// What the Overview reads from the admin API, checked with zod (only the fields it shows).
import { z } from 'zod';
import { listOf } from '../../api/http';

export const AdminStatus = z.object({
  service: z.object({ address: z.string(), loaded_model: z.string().nullable() }),
  secrets: z.object({ recovery_kit_confirmed_at: z.number().nullable() }),
  tasks: z.object({ running: z.number(), queued: z.number() }),
});
export type AdminStatus = z.infer<typeof AdminStatus>;

export const RepositoryStatus = z.object({
  name: z.string(),
  type: z.string(),
  enabled: z.boolean(),
  last_ok_at: z.number().nullable(),
  last_error: z.string().nullable(),
  failing: z.boolean(),
});
export type RepositoryStatus = z.infer<typeof RepositoryStatus>;

export const BackupStatus = z.object({
  paused: z.boolean(),
  interval_hours: z.number(),
  repositories: z.array(RepositoryStatus),
});
export type BackupStatus = z.infer<typeof BackupStatus>;

const Verdict = z.enum(['PASS', 'FAIL', 'UNVERIFIED']);
export type DrillVerdict = z.infer<typeof Verdict>;

export const DrillSummary = z.object({
  id: z.number(),
  kind: z.enum(['daily', 'deep']),
  verdict: Verdict.nullable(),
  finished_at: z.number().nullable(),
});
export type DrillSummary = z.infer<typeof DrillSummary>;

export const DrillStatus = z.object({
  paused: z.boolean(),
  last: z.object({ daily: DrillSummary.nullable(), deep: DrillSummary.nullable() }),
});
export type DrillStatus = z.infer<typeof DrillStatus>;

export const Alert = z.object({
  key: z.string(),
  severity: z.enum(['info', 'warning', 'critical']),
  message: z.string(),
  first_seen: z.number(),
  last_seen: z.number(),
  count: z.number(),
  resolved_at: z.number().nullable(),
});
export type Alert = z.infer<typeof Alert>;
export const AlertList = listOf(Alert);
