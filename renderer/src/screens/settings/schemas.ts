// What the Settings screen reads and writes through the admin API, checked with zod.
import { z } from 'zod';

export const ON_RESTART = ['fail', 'retry', 'resume'] as const;
export const OnRestart = z.enum(ON_RESTART);
export type OnRestart = z.infer<typeof OnRestart>;

/** The settings this screen edits (GET and PATCH /admin/settings answer all of them). */
export const Settings = z.object({
  backup_interval_hours: z.number(),
  backup_paused: z.boolean(),
  drill_paused: z.boolean(),
  default_on_restart: OnRestart,
});
export type Settings = z.infer<typeof Settings>;

export const KitStatus = z.object({ secrets: z.object({ recovery_kit_confirmed_at: z.number().nullable() }) });

export const RecoveryKit = z.object({ text: z.string(), created_at: z.number(), confirmed_at: z.number().nullable() });

export const KitConfirmed = z.object({ confirmed_at: z.number() });

export const RotationReport = z.object({
  rotated: z.boolean(),
  repositories: z.array(z.object({ name: z.string(), ok: z.boolean(), skipped: z.string().nullable(), old_keys_removed: z.boolean() })),
  warnings: z.array(z.string()),
  notes: z.array(z.string()),
});
export type RotationReport = z.infer<typeof RotationReport>;

/** GET /admin/diagnostics: the checks of `sanad doctor`. */
export const DiagnosticList = z.object({
  ok: z.boolean(),
  data: z.array(z.object({ name: z.string(), status: z.enum(['ok', 'warn', 'fail']), detail: z.string(), fix: z.string().nullable() })),
});
