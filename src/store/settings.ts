// Service settings (table `service_config`): typed, validated, with defaults. A value the user
// never set reads as its default; writing validates first, so the table never holds nonsense.
import type { z } from 'zod/v3';
import { SettingsSchema } from '../contract/settings.js';
import type { Db, ReadableDB } from './open.js';

export { SettingsSchema } from '../contract/settings.js';

export type Settings = z.infer<typeof SettingsSchema>;
export type SettingKey = keyof Settings;

export function readSettings(db: ReadableDB): Settings {
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
export function readConfigValue(db: ReadableDB, key: string): string | undefined {
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
