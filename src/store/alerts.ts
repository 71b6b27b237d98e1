// The persisted alert list: one row per alert key (e.g. `backup.offsite_failed:r2`), raised again
// and again without duplicating, resolved when the condition clears. The GUI, the tray and the
// notifications read it; "first seen" is when the user should have been told.
import type { Clock } from '../clock.js';
import { Said, type Spoken } from '../contract/said.js';
import { unixSeconds } from '../clock.js';
import { clearAlertAck, readAlertAcks } from './alert-acks.js';
import type { Db, ReadableDB } from './open.js';
import { parseJsonColumn } from './json-column.js';
import { asBookkeeping } from './content-mark.js';

export type Severity = 'info' | 'warning' | 'critical';

export interface Alert {
  key: string;
  severity: Severity;
  message: string;
  first_seen: number;
  last_seen: number;
  count: number;
  resolved_at: number | null;
  /** `{code, params}` as JSON, so each language words the message; null on rows from before 0019. */
  said: string | null;
}

/** Raises (or raises again) an alert. Returns true when it is new or was resolved before. */
export function raiseAlert(db: Db, clock: Clock, key: string, severity: Severity, spoken: Spoken): boolean {
  const now = unixSeconds(clock);
  const message = spoken.detail;
  const said = JSON.stringify({ code: spoken.code, params: spoken.params });
  // Alerts are Sanad's record of its own state, not content a backup must copy again for.
  return asBookkeeping(
    db,
    db.transaction(() => {
      const row = db.prepare<[string], Alert>('SELECT * FROM alerts WHERE key = ?').get(key);
      if (!row || row.resolved_at !== null) {
        // A new occurrence is news again, whatever was said about the last one.
        clearAlertAck(db, key);
        db.prepare(
          `INSERT INTO alerts(key, severity, message, said, first_seen, last_seen, count, resolved_at) VALUES (?, ?, ?, ?, ?, ?, 1, NULL)
         ON CONFLICT(key) DO UPDATE SET severity = excluded.severity, message = excluded.message, said = excluded.said, first_seen = excluded.first_seen,
           last_seen = excluded.last_seen, count = 1, resolved_at = NULL`,
        ).run(key, severity, message, said, now, now);
        return true;
      }
      db.prepare('UPDATE alerts SET severity = ?, message = ?, said = ?, last_seen = ?, count = count + 1 WHERE key = ?').run(
        severity,
        message,
        said,
        now,
        key,
      );
      return false;
    }),
  );
}

export function resolveAlert(db: Db, clock: Clock, key: string): boolean {
  return asBookkeeping(
    db,
    db.transaction(() => {
      const resolved = db.prepare('UPDATE alerts SET resolved_at = ? WHERE key = ? AND resolved_at IS NULL').run(unixSeconds(clock), key).changes > 0;
      if (resolved) clearAlertAck(db, key);
      return resolved;
    }),
  );
}

/** An alert as the API shows it: its saying, and what the person said about it. */
export interface ShownAlert extends Omit<Alert, 'said'> {
  code: string;
  params: Said['params'];
  /** Accepted as known (a warning): listed, but the Overview no longer counts it as needing attention. */
  accepted_at: number | null;
  /** Quiet (no notification, not counted) until then; null when not snoozed or the snooze is over. */
  snoozed_until: number | null;
}

export function withAcks(db: ReadableDB, alerts: readonly Alert[], nowS: number): ShownAlert[] {
  const acks = readAlertAcks(db);
  return alerts.map((a) => {
    const ack = a.resolved_at === null ? acks.get(a.key) : undefined;
    const until = ack?.snoozed_until ?? null;
    const { said, ...rest } = a;
    return { ...rest, ...saidOf(said, a.message), accepted_at: ack?.accepted_at ?? null, snoozed_until: until !== null && until > nowS ? until : null };
  });
}

/** The stored saying, or the message as it is (a row from before there were codes). */
function saidOf(json: string | null, message: string): Said {
  if (json !== null) {
    try {
      const parsed = Said.safeParse(JSON.parse(json));
      if (parsed.success) return parsed.data;
    } catch {
      // Not JSON: fall through to the message.
    }
  }
  return { code: 'said.text', params: { text: message } };
}

/** A live alert (not stored) in the stored shape. */
export function liveAlert(key: string, severity: Severity, spoken: Spoken, times: { first_seen: number; last_seen: number }): Alert {
  return { key, severity, message: spoken.detail, said: JSON.stringify({ code: spoken.code, params: spoken.params }), ...times, count: 1, resolved_at: null };
}

export function openAlerts(db: ReadableDB): Alert[] {
  return db
    .prepare<[], Alert>(
      "SELECT * FROM alerts WHERE resolved_at IS NULL ORDER BY CASE severity WHEN 'critical' THEN 0 WHEN 'warning' THEN 1 ELSE 2 END, first_seen",
    )
    .all();
}

export function allAlerts(db: ReadableDB, limit = 200): Alert[] {
  return db.prepare<[number], Alert>('SELECT * FROM alerts ORDER BY last_seen DESC LIMIT ?').all(limit);
}

/**
 * Why a repository's last backup failed, as a saying each language words: the `error` of its open
 * failure alert (`backup.offsite_failed:<name>`, or `backup.failed` for the local one). Null when
 * no open alert carries a saying (old rows, or the failure is only the stored English text).
 */
export function repositoryErrorSaid(db: ReadableDB, name: string, local: boolean): Said | null {
  const key = local ? 'backup.failed' : `backup.offsite_failed:${name}`;
  const row = db.prepare<[string], { said: string | null }>('SELECT said FROM alerts WHERE key = ? AND resolved_at IS NULL').get(key);
  const said = row?.said ? parseJsonColumn(Said, row.said) : null;
  const error = said?.params.error;
  return Array.isArray(error) && error[0] !== undefined ? error[0] : null;
}
