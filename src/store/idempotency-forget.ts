// Forgetting an idempotent answer when what it holds is deleted. The answer to an idempotent create
// is kept for replay (service/idempotency.ts) and holds the same text as the response or
// conversation it made; deleting that object must not leave its text there, nor let a replay of the
// key bring it back. The row stays as a tombstone until its key expires, with no body and no
// fingerprint of the request (a hash of a short prompt is a prompt), so a replay answers 409 and
// says why instead of running the request again as if it were new.
import type { Db } from './open.js';

/** status_code of a tombstone: what the answer held was deleted. */
export const ANSWER_DELETED = 410;
/** status_code of a tombstone: the answer was never stored (`store: false`). */
export const ANSWER_UNSTORED = 204;

/** Every stored answer naming one of `subjectIds` becomes a tombstone. Inside the caller's transaction. */
export function forgetAnswersOf(db: Db, subjectIds: readonly string[]): number {
  const forget = db.prepare(
    `UPDATE idempotency_keys SET body = NULL, fingerprint = '', status_code = ${ANSWER_DELETED} WHERE subject_id = ? AND state = 'done'`,
  );
  return subjectIds.reduce((n, id) => n + forget.run(id).changes, 0);
}

/** The ids an answer's text names: responses, conversations and chat completions (a completion
 *  `chatcmpl-X` is the response `resp_X`). */
function idsIn(body: string): Set<string> {
  const ids = new Set<string>();
  for (const m of body.matchAll(/\b(?:resp|conv)_[A-Za-z0-9]+/g)) ids.add(m[0]);
  for (const m of body.matchAll(/\bchatcmpl-([A-Za-z0-9]+)/g)) ids.add(`resp_${m[1] ?? ''}`);
  return ids;
}

/**
 * A restored store's answers, searched by their text (older stores name no subject): every answer
 * that names a deleted id becomes a tombstone. Returns how many. Inside the caller's transaction.
 */
export function forgetAnswersNaming(db: Db, deletedIds: ReadonlySet<string>): number {
  if (deletedIds.size === 0) return 0;
  const rows = db
    .prepare<[], { client_id: string; key: string; body: string }>('SELECT client_id, key, body FROM idempotency_keys WHERE body IS NOT NULL')
    .all();
  const forget = db.prepare(`UPDATE idempotency_keys SET body = NULL, fingerprint = '', status_code = ${ANSWER_DELETED} WHERE client_id = ? AND key = ?`);
  let n = 0;
  for (const row of rows) {
    if ([...idsIn(row.body)].some((id) => deletedIds.has(id))) n += forget.run(row.client_id, row.key).changes;
  }
  return n;
}
