// Idempotency keys (table `idempotency_keys`), scoped to the caller. A POST with a key reserves
// it (`in_progress`), runs once, and stores its status and body; the same key with the same
// request fingerprint replays that result with `Idempotent-Replayed: true`. Reservations left by
// a process that died are released at start (boot id), and a route whose effect is a database
// write completes the key inside that same transaction, so a crash can neither run a request
// twice nor lose the answer to one that ran.
import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { unixSeconds } from '../clock.js';
import { ANSWER_UNSTORED } from '../store/idempotency-forget.js';
import { completeKey, completeKeyUnstored, findKey, releaseKey, releaseStaleKeys, reserveKey } from '../store/idempotency-keys.js';
import type { Db } from '../store/open.js';
import { principalKey } from './auth.js';
import { canonicalJson } from './canonical-json.js';
import type { ServiceContext } from './context.js';
import { ApiError, badRequest } from './errors.js';

export interface IdempotencyReservation {
  clientKey: string;
  key: string;
  completed: boolean;
  /** What the answer holds (resp_…, conv_…): deleting it forgets the answer (store/idempotency-forget.ts).
   *  When unset, the answer's own top-level `id` names it. */
  subjectId?: string;
  /** The answer is of a `store: false` request: only a tombstone is kept, never its text. */
  unstored?: boolean;
}

declare module 'fastify' {
  interface FastifyRequest {
    idempotency: IdempotencyReservation | null;
  }
}

const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

export function fingerprint(req: FastifyRequest): string {
  const path = req.url.split('?')[0] ?? '';
  return createHash('sha256')
    .update(`${req.method}\n${path}\n${canonicalJson(req.body ?? null)}`)
    .digest('hex');
}

export type Replay = { status: number; body: string };

/**
 * preHandler logic: returns a stored result to replay, or reserves the key (or does nothing when
 * the request has no key). Must run after authentication and scope checks.
 */
/** Routes whose answer holds a secret (a token, a pairing code, a login link): it is never stored
 *  for replay, because the store goes into every backup. A key on them is refused, not ignored,
 *  so a client that counts on a replay learns at once that there is none. */
export const NOT_REPLAYABLE = new Set(['/admin/clients', '/admin/pairing-codes', '/admin/login-link', '/admin/restore/:id/open']);

export function reserveOrReplay(ctx: ServiceContext, req: FastifyRequest): Replay | null {
  req.idempotency = null;
  const header = req.headers['idempotency-key'];
  if (header === undefined) return null;
  if (NOT_REPLAYABLE.has(req.routeOptions.url ?? '')) {
    throw new ApiError(
      'not_replayable',
      'This answer holds a secret, so Sanad never stores it for replay; send the request without Idempotency-Key (and check first whether the earlier one took effect).',
      'Idempotency-Key',
    );
  }
  const key = Array.isArray(header) ? (header[0] ?? '') : header;
  if (!KEY_PATTERN.test(key)) {
    throw badRequest('The Idempotency-Key header must be 1 to 255 visible ASCII characters.', 'Idempotency-Key', 'invalid_idempotency_key');
  }
  if (!req.principal) throw new Error('idempotency before authentication');
  const clientKey = principalKey(req.principal);
  const fp = fingerprint(req);
  const now = unixSeconds(ctx.clock);
  const ttl = ctx.settings().idempotency_ttl_hours * 3600;
  return ctx.writer.transaction((): Replay | null => {
    const row = findKey(ctx.writer, { clientKey, key });
    if (row && row.expires_at > now) {
      if (row.state === 'done' && row.body === null) throw forgottenAnswer(row.status_code);
      if (row.fingerprint !== fp) {
        throw new ApiError('idempotency_key_reused', 'This Idempotency-Key was already used for a different request; use a new key.', 'Idempotency-Key');
      }
      if (row.state === 'in_progress') {
        throw new ApiError('idempotency_key_in_progress', 'A request with this Idempotency-Key is still being processed; retry shortly.', 'Idempotency-Key');
      }
      return { status: row.status_code ?? 200, body: row.body ?? '' };
    }
    reserveKey(ctx.writer, { clientKey, key }, fp, ctx.bootId, now, now + ttl);
    req.idempotency = { clientKey, key, completed: false };
    return null;
  })();
}

/** A key whose answer is a tombstone: a 409 that says why, never a run of the request as if new. */
function forgottenAnswer(status: number | null): ApiError {
  if (status === ANSWER_UNSTORED) {
    return new ApiError(
      'idempotent_answer_not_stored',
      'The request sent with this Idempotency-Key had store: false, so its answer was never kept and cannot be replayed; send it again with a new key.',
      'Idempotency-Key',
    );
  }
  return new ApiError(
    'idempotent_answer_deleted',
    'What the request with this Idempotency-Key made has since been deleted, and so was its answer; send it again with a new key to make it anew.',
    'Idempotency-Key',
  );
}

/** The id an answer names at its top level: a response, a conversation, a chat completion's response. */
function subjectOf(body: string): string | null {
  const m = /^\{"id":"((?:resp|conv)_[A-Za-z0-9]+|chatcmpl-[A-Za-z0-9]+)"/.exec(body) ?? /"stream_response_id":"(resp_[A-Za-z0-9]+)"/.exec(body);
  const id = m?.[1];
  if (!id) return null;
  return id.startsWith('chatcmpl-') ? `resp_${id.slice('chatcmpl-'.length)}` : id;
}

/** Stores the result. Call inside the route's own transaction when the route writes. */
export function completeReservation(db: Db, r: IdempotencyReservation, status: number, body: string): void {
  const subject = r.subjectId ?? subjectOf(body);
  // store: false: neither the answer nor a fingerprint of the request is kept.
  if (r.unstored) completeKeyUnstored(db, r, subject);
  else completeKey(db, r, status, body, subject);
  r.completed = true;
}

/** Releases a reservation whose request failed in a way worth retrying (5xx, 429, aborted), or
 *  (`withdrawn`) whose answer no longer stands: its task was cancelled because its client left, so
 *  the client's retry runs anew instead of replaying a cancelled fragment. */
export function releaseReservation(db: Db, r: IdempotencyReservation, withdrawn = false): void {
  releaseKey(db, r, withdrawn);
  r.completed = true;
}

/** onSend hook: stores what the route answered, unless the route already did. */
export function storeOnSend(ctx: ServiceContext, req: FastifyRequest, reply: FastifyReply, payload: unknown): void {
  const r = req.idempotency;
  if (!r || r.completed) return;
  if (reply.statusCode >= 500 || reply.statusCode === 429 || typeof payload !== 'string') releaseReservation(ctx.writer, r);
  else completeReservation(ctx.writer, r, reply.statusCode, payload);
}

/** At start: reservations of a process that died never completed; let their keys be used again. */
export function releaseStaleReservations(db: Db, bootId: string): number {
  return releaseStaleKeys(db, bootId);
}
