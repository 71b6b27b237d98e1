// The retention sweep (LMSP §11.2): terminal tasks older than the retention period go, with their
// events and responses. Unfinished tasks are never touched, whatever their age. Deletes run in
// small batches so no transaction holds the write lock for long.
import type { Db } from '../store/open.js';

const BATCH = 500;

export function sweepTerminalTasks(db: Db, nowS: number, retentionDays: number): number {
  const cutoff = nowS - retentionDays * 86_400;
  const pick = db.prepare<[number, number], { response_id: string }>(
    `SELECT response_id FROM tasks
     WHERE status IN ('completed','failed','cancelled') AND updated_at < ? LIMIT ?`,
  );
  const del = db.prepare(
    `DELETE FROM responses WHERE id = ? AND EXISTS (
       SELECT 1 FROM tasks WHERE response_id = responses.id AND status IN ('completed','failed','cancelled'))`,
  );
  let removed = 0;
  for (;;) {
    const batch = pick.all(cutoff, BATCH);
    if (batch.length === 0) return removed;
    removed += db.transaction(() => batch.reduce((n, r) => n + del.run(r.response_id).changes, 0))();
    if (batch.length < BATCH) return removed;
  }
}

/**
 * Responses created with `store: false` are deleted as soon as their answer is sent. One whose
 * process died before that (and which recovery then finished) has no one left to answer: it goes
 * once it has been terminal for `graceS` seconds.
 */
export function sweepUnstoredResponses(db: Db, nowS: number, graceS = 300): number {
  return db
    .prepare(
      `DELETE FROM responses WHERE store = 0 AND id IN (
         SELECT response_id FROM tasks WHERE status IN ('completed','failed','cancelled') AND updated_at < ?)`,
    )
    .run(nowS - graceS).changes;
}

export function sweepIdempotencyKeys(db: Db, nowS: number): number {
  return db.prepare('DELETE FROM idempotency_keys WHERE expires_at < ?').run(nowS).changes;
}

export type DeleteOutcome = 'deleted' | 'not_terminal' | 'not_found';

/** Deletes one response with its task and events, only if the task is terminal. */
export function deleteTerminalResponse(db: Db, responseId: string): DeleteOutcome {
  return db.transaction((): DeleteOutcome => {
    const task = db.prepare<[string], { status: string }>('SELECT status FROM tasks WHERE response_id = ?').get(responseId);
    if (!task) return 'not_found';
    if (!['completed', 'failed', 'cancelled'].includes(task.status)) return 'not_terminal';
    db.prepare('DELETE FROM responses WHERE id = ?').run(responseId);
    return 'deleted';
  })();
}
