// GET /admin/alerts and the alerts inside the backup status: what is wrong, how bad, since when.
import { z } from 'zod/v3';
import { listOf } from './list.js';

export const Severity = z.enum(['info', 'warning', 'critical']);
export type Severity = z.infer<typeof Severity>;

export const Alert = z.object({
  key: z.string(),
  severity: Severity,
  message: z.string(),
  first_seen: z.number(),
  last_seen: z.number(),
  count: z.number(),
  resolved_at: z.number().nullable(),
});
export type Alert = z.infer<typeof Alert>;

export const AlertList = listOf(Alert);
