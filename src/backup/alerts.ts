// The persisted alert list: one row per alert key (e.g. `backup.offsite_failed:r2`), raised again
// and again without duplicating, resolved when the condition clears. The GUI, the tray and the
// notifications read it; "first seen" is when the user should have been told.
import type { Clock } from '../clock.js';
import { unixSeconds } from '../clock.js';
import type { Db, ReadableDB } from '../store/open.js';

export type Severity = 'info' | 'warning' | 'critical';

export interface Alert {
  key: string;
  severity: Severity;
  message: string;
  first_seen: number;
  last_seen: number;
  count: number;
  resolved_at: number | null;
}

/** Raises (or raises again) an alert. Returns true when it is new or was resolved before. */
export function raiseAlert(db: Db, clock: Clock, key: string, severity: Severity, message: string): boolean {
  const now = unixSeconds(clock);
  return db.transaction(() => {
    const row = db.prepare<[string], Alert>('SELECT * FROM alerts WHERE key = ?').get(key);
    if (!row || row.resolved_at !== null) {
      db.prepare(
        `INSERT INTO alerts(key, severity, message, first_seen, last_seen, count, resolved_at) VALUES (?, ?, ?, ?, ?, 1, NULL)
         ON CONFLICT(key) DO UPDATE SET severity = excluded.severity, message = excluded.message, first_seen = excluded.first_seen,
           last_seen = excluded.last_seen, count = 1, resolved_at = NULL`,
      ).run(key, severity, message, now, now);
      return true;
    }
    db.prepare('UPDATE alerts SET severity = ?, message = ?, last_seen = ?, count = count + 1 WHERE key = ?').run(severity, message, now, key);
    return false;
  })();
}

export function resolveAlert(db: Db, clock: Clock, key: string): boolean {
  return db.prepare('UPDATE alerts SET resolved_at = ? WHERE key = ? AND resolved_at IS NULL').run(unixSeconds(clock), key).changes > 0;
}

export function openAlerts(db: ReadableDB): Alert[] {
  return db.prepare<[], Alert>(
    "SELECT * FROM alerts WHERE resolved_at IS NULL ORDER BY CASE severity WHEN 'critical' THEN 0 WHEN 'warning' THEN 1 ELSE 2 END, first_seen",
  ).all();
}

export function allAlerts(db: ReadableDB, limit = 200): Alert[] {
  return db.prepare<[number], Alert>('SELECT * FROM alerts ORDER BY last_seen DESC LIMIT ?').all(limit);
}
