// The table `idempotency_keys`: one row per (caller, key), reserved while its request runs and
// completed with the answer to replay. The HTTP rules around it (fingerprints, replays, refusals)
// are the service's (service/idempotency.ts); this module is its only SQL.
import { ANSWER_UNSTORED } from './idempotency-forget.js';
import type { Db } from './open.js';

export interface KeyRow {
  fingerprint: string;
  state: 'in_progress' | 'done';
  status_code: number | null;
  body: string | null;
  expires_at: number;
}

export interface KeyRef {
  clientKey: string;
  key: string;
}

export function findKey(db: Db, ref: KeyRef): KeyRow | undefined {
  return db
    .prepare<[string, string], KeyRow>('SELECT fingerprint, state, status_code, body, expires_at FROM idempotency_keys WHERE client_id = ? AND key = ?')
    .get(ref.clientKey, ref.key);
}

/** Reserves the key for a request now running (replacing an expired row of the same key). */
export function reserveKey(db: Db, ref: KeyRef, fingerprint: string, bootId: string, nowS: number, expiresS: number): void {
  db.prepare(
    `INSERT INTO idempotency_keys(client_id, key, fingerprint, state, boot_id, created_at, expires_at)
     VALUES (?, ?, ?, 'in_progress', ?, ?, ?)
     ON CONFLICT(client_id, key) DO UPDATE SET fingerprint = excluded.fingerprint, state = 'in_progress',
       status_code = NULL, body = NULL, boot_id = excluded.boot_id, created_at = excluded.created_at, expires_at = excluded.expires_at`,
  ).run(ref.clientKey, ref.key, fingerprint, bootId, nowS, expiresS);
}

/** Keeps the answer for replay; `subject` names what it holds (deleting that forgets the answer). */
export function completeKey(db: Db, ref: KeyRef, status: number, body: string, subject: string | null): void {
  db.prepare("UPDATE idempotency_keys SET state = 'done', status_code = ?, body = ?, subject_id = ? WHERE client_id = ? AND key = ?").run(
    status,
    body,
    subject,
    ref.clientKey,
    ref.key,
  );
}

/** A `store: false` answer: neither it nor a fingerprint of the request is kept, only a tombstone. */
export function completeKeyUnstored(db: Db, ref: KeyRef, subject: string | null): void {
  db.prepare("UPDATE idempotency_keys SET state = 'done', status_code = ?, body = NULL, fingerprint = '', subject_id = ? WHERE client_id = ? AND key = ?").run(
    ANSWER_UNSTORED,
    subject,
    ref.clientKey,
    ref.key,
  );
}

/** Lets the key be used again: a reservation whose request is worth retrying, or (`any`) an answer
 *  that was withdrawn (its task was cancelled because its client left). */
export function releaseKey(db: Db, ref: KeyRef, any = false): void {
  db.prepare(`DELETE FROM idempotency_keys WHERE client_id = ? AND key = ?${any ? '' : " AND state = 'in_progress'"}`).run(ref.clientKey, ref.key);
}

/** At start: reservations of a process that died never completed; their keys may be used again. */
export function releaseStaleKeys(db: Db, bootId: string): number {
  return db.prepare("DELETE FROM idempotency_keys WHERE state = 'in_progress' AND boot_id != ?").run(bootId).changes;
}
