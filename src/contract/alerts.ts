// GET /admin/alerts and the alerts inside the backup status: what is wrong, how bad, since when.
import { z } from 'zod/v3';
import { listOf } from './list.js';
import { SaidParams } from './said.js';

export const Severity = z.enum(['info', 'warning', 'critical']);
export type Severity = z.infer<typeof Severity>;

export const Alert = z.object({
  key: z.string(),
  severity: Severity,
  /** The English sentence; `code` and `params` let the GUI word it in the reader's language. */
  message: z.string(),
  code: z.string(),
  params: SaidParams,
  first_seen: z.number(),
  last_seen: z.number(),
  count: z.number(),
  resolved_at: z.number().nullable(),
  /** When the person accepted this warning as known: listed, but not counted as needing attention. */
  accepted_at: z.number().nullable(),
  /** Snoozed: not counted and not notified until then (unix seconds). */
  snoozed_until: z.number().nullable(),
});
export type Alert = z.infer<typeof Alert>;

export const AlertList = listOf(Alert);

/** POST /admin/alerts/{key}/acknowledge: accept a warning, snooze an alert for some hours, or undo. */
export const AlertAckRequest = z.discriminatedUnion('action', [
  z.object({ action: z.literal('accept') }).strict(),
  z
    .object({
      action: z.literal('snooze'),
      hours: z
        .number()
        .int()
        .min(1)
        .max(24 * 30),
    })
    .strict(),
  z.object({ action: z.literal('clear') }).strict(),
]);
export type AlertAckRequest = z.infer<typeof AlertAckRequest>;

/** Accepted or snoozed right now: not notified. */
export function isQuiet(alert: Pick<Alert, 'accepted_at' | 'snoozed_until'>): boolean {
  return alert.accepted_at !== null || alert.snoozed_until !== null;
}

/** A quiet warning or info: not counted by the Overview or the tray (a critical alert always counts). */
export function isQuietWarning(alert: Pick<Alert, 'severity' | 'accepted_at' | 'snoozed_until'>): boolean {
  return alert.severity !== 'critical' && isQuiet(alert);
}
