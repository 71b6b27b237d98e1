// The retention sweep (LMSP §11.2): terminal tasks older than the retention period go, with their
// events and responses. Unfinished tasks are never touched, whatever their age. Deletes run in
// small batches so no transaction holds the write lock for long. Every response that goes is
// written to the deletion journal first (store/deletion-journal.ts), inside the delete's
// transaction, so a restored older store can have it removed again.
import type { Deletion } from '../store/deletion-journal.js';
import { forgetAnswersNaming, forgetAnswersOf } from '../store/idempotency-forget.js';
import type { Db } from '../store/open.js';

/** Where deletions are journalled (the data dir's DeletionJournal). */
export interface DeletionRecorder {
  record(entries: readonly Deletion[]): void;
}

const TERMINAL = "('completed','failed','cancelled')";

const BATCH = 500;

export function sweepTerminalTasks(db: Db, nowS: number, retentionDays: number, journal: DeletionRecorder): number {
  const cutoff = nowS - retentionDays * 86_400;
  // `+status`: search by age on tasks(updated_at) and test the status on the few old rows found;
  // searched by status instead, SQLite walks every finished task (a million at each start).
  const pick = db.prepare<[number, number], { response_id: string }>(
    `SELECT response_id FROM tasks
     WHERE +status IN ${TERMINAL} AND updated_at < ? LIMIT ?`,
  );
  const del = db.prepare(
    `DELETE FROM responses WHERE id = ? AND EXISTS (
       SELECT 1 FROM tasks WHERE response_id = responses.id AND status IN ${TERMINAL})`,
  );
  let removed = 0;
  for (;;) {
    const batch = pick.all(cutoff, BATCH);
    if (batch.length === 0) return removed;
    removed += db.transaction(() => {
      journal.record(batch.map((r) => ({ kind: 'response', id: r.response_id, at: nowS, why: 'retention' })));
      forgetAnswersOf(
        db,
        batch.map((r) => r.response_id),
      );
      return batch.reduce((n, r) => n + del.run(r.response_id).changes, 0);
    })();
    if (batch.length < BATCH) return removed;
  }
}

/**
 * Responses created with `store: false` are deleted as soon as their answer is sent. One whose
 * process died before that (and which recovery then finished) has no one left to answer: it goes
 * once it has been terminal for `graceS` seconds.
 */
export function sweepUnstoredResponses(db: Db, nowS: number, journal: DeletionRecorder, graceS = 300): number {
  return db.transaction(() => {
    const ids = db
      .prepare<[number], { id: string }>(
        `SELECT id FROM responses WHERE store = 0 AND id IN (
         SELECT response_id FROM tasks WHERE +status IN ${TERMINAL} AND updated_at < ?)`, // by age, as above
      )
      .all(nowS - graceS);
    journal.record(ids.map((r) => ({ kind: 'response', id: r.id, at: nowS, why: 'unstored' })));
    forgetAnswersOf(
      db,
      ids.map((r) => r.id),
    );
    const del = db.prepare('DELETE FROM responses WHERE id = ?');
    return ids.reduce((n, r) => n + del.run(r.id).changes, 0);
  })();
}

export function sweepIdempotencyKeys(db: Db, nowS: number): number {
  return db.prepare('DELETE FROM idempotency_keys WHERE expires_at < ?').run(nowS).changes;
}

export type DeleteOutcome = 'deleted' | 'not_terminal' | 'not_found';

/** Deletes one response with its task and events, only if the task is terminal. */
export function deleteTerminalResponse(db: Db, responseId: string, journal: DeletionRecorder, nowS: number, why: Deletion['why'] = 'deleted'): DeleteOutcome {
  return db.transaction((): DeleteOutcome => {
    const task = db.prepare<[string], { status: string }>('SELECT status FROM tasks WHERE response_id = ?').get(responseId);
    if (!task) return 'not_found';
    if (!['completed', 'failed', 'cancelled'].includes(task.status)) return 'not_terminal';
    journal.record([{ kind: 'response', id: responseId, at: nowS, why }]);
    db.prepare('DELETE FROM responses WHERE id = ?').run(responseId);
    forgetAnswersOf(db, [responseId]);
    return 'deleted';
  })();
}

/** Whether a store has a table (a generation's store may predate conversations). */
function hasTable(db: Db, name: string): boolean {
  return db.prepare<[string], { name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' AND name = ?").get(name) !== undefined;
}

/**
 * Applies a deletion journal to a store (a restored one, before anything opens it): every
 * journalled response still there goes with its task and events, whatever its
 * status (a restored store's tasks are not running); every journalled conversation with its
 * items, every journalled conversation item. Returns the ids removed. One transaction.
 */
export function applyDeletions(db: Db, deletions: readonly Deletion[]): string[] {
  const has = db.prepare<[string], { id: string }>('SELECT id FROM responses WHERE id = ?');
  const delEvents = db.prepare('DELETE FROM task_events WHERE task_id IN (SELECT id FROM tasks WHERE response_id = ?)');
  const delTask = db.prepare('DELETE FROM tasks WHERE response_id = ?');
  const delResponse = db.prepare('DELETE FROM responses WHERE id = ?');
  const conversations = hasTable(db, 'conversations');
  const delItems = conversations ? db.prepare('DELETE FROM conversation_items WHERE conversation_id = ?') : null;
  const delConversation = conversations ? db.prepare('DELETE FROM conversations WHERE id = ?') : null;
  const delItem = conversations ? db.prepare('DELETE FROM conversation_items WHERE conversation_id = ? AND id = ?') : null;
  return db.transaction(() => {
    const removed: string[] = [];
    // Idempotent answers hold the same text: searched by their text (an older store names no subject).
    forgetAnswersNaming(
      db,
      new Set(deletions.flatMap((d) => (d.kind === 'conversation_item' && d.conversation_id !== undefined ? [d.id, d.conversation_id] : [d.id]))),
    );
    for (const d of deletions) {
      if (d.kind === 'conversation') {
        delItems?.run(d.id);
        if ((delConversation?.run(d.id).changes ?? 0) > 0) removed.push(d.id);
        continue;
      }
      if (d.kind === 'conversation_item') {
        if (d.conversation_id !== undefined && (delItem?.run(d.conversation_id, d.id).changes ?? 0) > 0) removed.push(d.id);
        continue;
      }
      if (!has.get(d.id)) continue;
      // Explicit, not through ON DELETE CASCADE: the connection may not have foreign keys on.
      delEvents.run(d.id);
      delTask.run(d.id);
      delResponse.run(d.id);
      removed.push(d.id);
    }
    return removed;
  })();
}
