// The service settings, written once: the store validates what it keeps with this schema (and fills
// the defaults), GET and PATCH /admin/settings answer with it, and the GUI parses the answer with it.
import { z } from 'zod/v3';
import { isSafeRemoteUrl } from './remote-url.js';

/** A browser origin as a browser sends it: scheme, host, maybe a port; nothing after. */
export const ORIGIN_PATTERN = /^https?:\/\/[^/\s?#]+$/;
export const MAX_ALLOWED_ORIGINS = 32;

export const SettingsSchema = z.object({
  default_on_restart: z.enum(['fail', 'retry', 'resume']).default('fail'),
  retention_days: z.number().int().min(1).max(3650).default(30),
  idempotency_ttl_hours: z
    .number()
    .int()
    .min(1)
    .max(24 * 30)
    .default(24),
  // Generations at once: the runner's limit, and each model's context sequences (fewer when its
  // memory needs them: src/engine/memory-plan.ts).
  max_concurrent_generations: z.number().int().min(1).max(16).default(4),
  // A model unused this long is unloaded (5 minutes, as Ollama's keep_alive).
  model_idle_unload_seconds: z.number().int().min(10).max(86_400).default(300),
  // Memory the loaded models and their contexts may take, in MiB; null: half of the computer's.
  // Past it, loading another model unloads the least recently used.
  model_memory_budget_mb: z.number().int().min(16).max(16_777_216).nullable().default(null),
  // A generation slower than this per output token is stopped (failed, generation_too_slow).
  max_seconds_per_output_token: z.number().min(0.01).max(3600).default(10),
  max_output_tokens_limit: z.number().int().min(16).max(1_000_000).default(8192),
  requests_per_minute_per_client: z.number().int().min(10).max(1_000_000).default(1200),
  // Floods (src/service/flood-limits.ts): what one client may hold open or waiting at once, and the
  // service's connections in all; past them the answer is 429 rate_limited with Retry-After.
  max_streams_per_client: z.number().int().min(1).max(10_000).default(32),
  max_queued_tasks_per_client: z.number().int().min(1).max(1_000_000).default(256),
  max_connections: z.number().int().min(16).max(100_000).default(1024),
  // The backup schedule (src/backup/schedule.ts): hours between runs (hourly by default: measured at
  // 3.8 CPU s and +13 MiB per run on a 438 MiB store, bench/scale.ts), and a pause the user can set.
  backup_interval_hours: z
    .number()
    .int()
    .min(1)
    .max(24 * 7)
    .default(1),
  // Or one backup a day at this local time ("HH:MM", 24-hour clock) instead of the interval.
  backup_time_of_day: z
    .string()
    .regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'a time of day as HH:MM (24-hour clock), such as 02:30')
    .nullable()
    .default(null),
  // Hold a scheduled backup while the computer runs on battery / the connection is metered, where the
  // OS says so (src/schedule/os-conditions.ts); "Back up now" is never held.
  backup_skip_on_battery: z.boolean().default(false),
  backup_skip_on_metered: z.boolean().default(false),
  backup_paused: z.boolean().default(false),
  // Retention (src/backup/retention.ts): how many of the newest hourly, daily, weekly and monthly
  // generations each repository keeps; maintenance forgets the rest. At least one daily is kept,
  // so no setting can empty a repository.
  retention_keep_hourly: z.number().int().min(0).max(1000).default(24),
  retention_keep_daily: z.number().int().min(1).max(1000).default(30),
  retention_keep_weekly: z.number().int().min(0).max(1000).default(8),
  retention_keep_monthly: z.number().int().min(0).max(1000).default(12),
  // Devices on the network (src/appliance/lan/): a second listener, TLS only, LMSP routes only.
  lan_enabled: z.boolean().default(false),
  lan_port: z.number().int().min(1).max(65535).default(7438),
  // Browser apps on other origins that may call the model routes (/v1, never /admin or the GUI):
  // none by default; each an origin exactly as a browser sends it ("http://localhost:3000").
  allowed_origins: z
    .array(z.string().regex(ORIGIN_PATTERN, 'an origin such as http://localhost:3000 (scheme, host and port; no path)'))
    .max(MAX_ALLOWED_ORIGINS)
    .default([]),
  // The optional compressed offsite copy: an rclone folder ("remote:folder"), how many to keep
  // (0 = all), and the rclone config file to use (else rclone's default).
  offsite_copy_destination: z.string().min(3).max(4096).nullable().default(null),
  offsite_copy_keep: z.number().int().min(0).max(1000).default(7),
  offsite_copy_rclone_config: z.string().min(1).max(4096).nullable().default(null),
  // Drills (src/drill/): a pause for the schedule, and t in the deep drill's rotating
  // `restic check --read-data-subset=n/t` (every pack is read once in t deep drills).
  // An offsite repository that stops answering mid-upload (src/backup/offsite-attempts.ts): an
  // attempt without progress for this long ends, and is tried again this many times, waiting
  // offsite_retry_backoff_seconds (×4 each time) in between.
  offsite_stall_seconds: z.number().int().min(2).max(86_400).default(300),
  offsite_retries: z.number().int().min(0).max(10).default(2),
  offsite_retry_backoff_seconds: z.number().int().min(0).max(3600).default(15),
  drill_paused: z.boolean().default(false),
  drill_read_subset_total: z.number().int().min(1).max(256).default(8),
  // A model pulled from a hub: are its bytes in every backup ('include', so a restore needs no
  // network) or only where it came from ('source': a restore pulls it again, verified)?
  pulled_models_backup: z.enum(['include', 'source']).default('include'),
  // The language the person chose in the GUI; the desktop's tray and notifications follow it (the
  // page cannot keep it itself: its origin changes every launch). null: the system's language.
  language: z.enum(['en', 'ar']).nullable().default(null),
  // Where the desktop app looks for a newer Sanad (an electron-builder "generic" feed: the folder
  // holding latest.yml / latest-linux.yml / latest-mac.yml). null: it never looks (nothing leaves
  // the machine unasked). HTTPS, or plain HTTP on this computer only.
  update_feed_url: z
    .string()
    .max(2048)
    .refine(isSafeRemoteUrl, 'an https:// URL (http:// only for localhost or 127.0.0.1), such as https://updates.example.com/sanad/')
    .nullable()
    .default(null),
});

/** An update feed Sanad may fetch from: HTTPS anywhere, plain HTTP only on the loopback. */
export const isFeedUrl = isSafeRemoteUrl;

export type Settings = z.infer<typeof SettingsSchema>;

/** Hours between scheduled backups: a day when they run at a time of day, else the interval. */
export function scheduledIntervalHours(settings: Pick<Settings, 'backup_interval_hours' | 'backup_time_of_day'>): number {
  return settings.backup_time_of_day !== null ? 24 : settings.backup_interval_hours;
}
