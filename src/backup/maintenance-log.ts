// The maintenance log: what each repository's maintenance did (the steps that ran, what
// `forget --prune` removed and kept, where and why it failed), so the GUI and the API can show it,
// not only that it ran. Kept in `service_config` as one JSON list per repository (newest first,
// the last MAINTENANCE_LOG_KEEP runs) rather than in a table: a log this small needs no migration,
// and migrations must stay contiguous across branches.
import { z } from 'zod/v3';
import type { Db, ReadableDB } from '../store/open.js';
import { readConfigValue, writeConfigValue } from '../store/settings.js';
import { asBookkeeping } from '../store/content-mark.js';

export const MAINTENANCE_LOG_KEEP = 20;

const Step = z.enum(['unlock', 'forget', 'check']);

const Entry = z.object({
  repository: z.string(),
  /** Unix seconds. */
  started_at: z.number(),
  finished_at: z.number(),
  ok: z.boolean(),
  /** The steps that completed, in order. */
  steps: z.array(Step),
  /** The step that failed (null when ok). */
  failed_step: Step.nullable(),
  /** Snapshots `forget --prune` removed and kept (null if it did not run). */
  removed: z.number().int().nullable(),
  kept: z.number().int().nullable(),
  error: z.string().nullable(),
});
export type MaintenanceEntry = z.infer<typeof Entry>;

export const logKey = (repo: string): string => `maintenance_log:${repo}`;

/** Newest first; a damaged value reads as an empty log rather than breaking the status. */
export function maintenanceLog(db: ReadableDB, repo: string): MaintenanceEntry[] {
  const raw = readConfigValue(db, logKey(repo));
  if (raw === undefined) return [];
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return [];
  }
  const parsed = z.array(Entry).safeParse(value);
  return parsed.success ? parsed.data : [];
}

export function recordMaintenance(db: Db, entry: MaintenanceEntry): void {
  const next = [entry, ...maintenanceLog(db, entry.repository)].slice(0, MAINTENANCE_LOG_KEEP);
  asBookkeeping(db, () => writeConfigValue(db, logKey(entry.repository), JSON.stringify(next), entry.finished_at));
}
