// The alert_acks table (migration 0018): one row per alert key the person accepted or snoozed.
import type { Db, ReadableDB } from './open.js';

export interface AlertAck {
  key: string;
  accepted_at: number | null;
  snoozed_until: number | null;
}

export function readAlertAcks(db: ReadableDB): Map<string, AlertAck> {
  const rows = db.prepare<[], AlertAck>('SELECT key, accepted_at, snoozed_until FROM alert_acks').all();
  return new Map(rows.map((r) => [r.key, r]));
}

/** Accepted for as long as the alert stays open; a snooze is replaced. */
export function acceptAlertKey(db: Db, key: string, nowS: number): void {
  db.prepare(
    `INSERT INTO alert_acks(key, accepted_at, snoozed_until, updated_at) VALUES (?, ?, NULL, ?)
    ON CONFLICT(key) DO UPDATE SET accepted_at = excluded.accepted_at, snoozed_until = NULL, updated_at = excluded.updated_at`,
  ).run(key, nowS, nowS);
}

/** Quiet until `untilS`; an acceptance is replaced. */
export function snoozeAlertKey(db: Db, key: string, untilS: number, nowS: number): void {
  db.prepare(
    `INSERT INTO alert_acks(key, accepted_at, snoozed_until, updated_at) VALUES (?, NULL, ?, ?)
    ON CONFLICT(key) DO UPDATE SET accepted_at = NULL, snoozed_until = excluded.snoozed_until, updated_at = excluded.updated_at`,
  ).run(key, untilS, nowS);
}

export function clearAlertAck(db: Db, key: string): boolean {
  return db.prepare('DELETE FROM alert_acks WHERE key = ?').run(key).changes > 0;
}
