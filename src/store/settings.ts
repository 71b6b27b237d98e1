// Service settings (table `service_config`): typed, validated, with defaults. A value the user
// never set reads as its default; writing validates first, so the table never holds nonsense.
import { z } from 'zod';
import type { Db } from './open.js';

export const SettingsSchema = z.object({
  default_on_restart: z.enum(['fail', 'retry', 'resume']).default('fail'),
  retention_days: z.number().int().min(1).max(3650).default(30),
  idempotency_ttl_hours: z.number().int().min(1).max(24 * 30).default(24),
  max_concurrent_generations: z.number().int().min(1).max(16).default(1),
  model_idle_unload_seconds: z.number().int().min(10).max(86_400).default(600),
  max_output_tokens_limit: z.number().int().min(16).max(1_000_000).default(8192),
  requests_per_minute_per_client: z.number().int().min(10).max(1_000_000).default(1200),
  // The backup schedule (src/backup/schedule.ts): hours between runs, and a pause the user can set.
  backup_interval_hours: z.number().int().min(1).max(24 * 7).default(6),
  backup_paused: z.boolean().default(false),
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
});

export type Settings = z.infer<typeof SettingsSchema>;
export type SettingKey = keyof Settings;

export function readSettings(db: Db): Settings {
  const rows = db.prepare<[], { key: string; value: string }>('SELECT key, value FROM service_config').all();
  const raw: Record<string, unknown> = {};
  const fields: Record<string, z.ZodTypeAny> = SettingsSchema.shape;
  for (const row of rows) {
    // Unknown or invalid stored values fall back to their own default instead of breaking
    // startup; one damaged row must not reset the others (a shorter retention would delete data).
    const value = safeJson(row.value);
    if (Object.hasOwn(fields, row.key) && fields[row.key]?.safeParse(value).success) raw[row.key] = value;
  }
  return SettingsSchema.parse(raw);
}

export function writeSettings(db: Db, patch: Partial<Settings>, nowS: number): Settings {
  const next = SettingsSchema.parse({ ...readSettings(db), ...patch });
  const upsert = db.prepare(
    'INSERT INTO service_config(key, value, updated_at) VALUES (?, ?, ?) ' +
      'ON CONFLICT(key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at',
  );
  db.transaction(() => {
    for (const [key, value] of Object.entries(next)) {
      if (key in patch) upsert.run(key, JSON.stringify(value), nowS);
    }
  })();
  return next;
}

/** Free-form identity values (instance id, created time) live beside the settings. */
export function readConfigValue(db: Db, key: string): string | undefined {
  return db.prepare<[string], { value: string }>('SELECT value FROM service_config WHERE key = ?').get(key)?.value;
}

export function writeConfigValue(db: Db, key: string, value: string, nowS: number): void {
  db.prepare(
    'INSERT INTO service_config(key, value, updated_at) VALUES (?, ?, ?) ' +
      'ON CONFLICT(key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at',
  ).run(key, value, nowS);
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
