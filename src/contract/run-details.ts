// GET /admin/runs/{id}: one run of the one record (runs.ts) with its kind's details beside it, the
// same shapes the kind's own answers use: a backup's copies and offsite copy, a drill's checklist,
// a restore's target and result.
import { z } from 'zod/v3';
import { BackupCopy, OffsiteCopyOutcome } from './backups.js';
import { DrillRun } from './drills.js';
import { RestoreJob } from './restore.js';
import { Run } from './runs.js';

export const RunDetails = Run.extend({
  backup: z.object({ copies: z.array(BackupCopy), offsite_copy: OffsiteCopyOutcome.nullable() }).optional(),
  drill: DrillRun.optional(),
  restore: RestoreJob.optional(),
});
export type RunDetails = z.infer<typeof RunDetails>;
