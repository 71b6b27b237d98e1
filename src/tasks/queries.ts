// Read paths for tasks, responses and events. Writes live in ledger.ts only.
import type { ReadableDB } from '../store/open.js';
import { cachedStatement } from '../store/statements.js';
import type { EventRow, ResponseRow, TaskEvent, TaskRow, TaskStatus } from './types.js';

// Prepared once per connection (store/statements.ts): a streamed answer reads its task and response
// a dozen times, and preparing each time was a visible share of the loop in its profile.
const taskById = cachedStatement<[string], TaskRow>('SELECT * FROM tasks WHERE id = ?');
const taskByResponse = cachedStatement<[string], TaskRow>('SELECT * FROM tasks WHERE response_id = ?');
const responseById = cachedStatement<[string], ResponseRow>('SELECT * FROM responses WHERE id = ?');

export function getTask(db: ReadableDB, id: string): TaskRow | undefined {
  return taskById(db).get(id);
}

export function getTaskByResponse(db: ReadableDB, responseId: string): TaskRow | undefined {
  return taskByResponse(db).get(responseId);
}

export function getResponseRow(db: ReadableDB, id: string): ResponseRow | undefined {
  return responseById(db).get(id);
}

export function tasksInStatus(db: ReadableDB, statuses: readonly TaskStatus[]): TaskRow[] {
  const marks = statuses.map(() => '?').join(',');
  return db.prepare<TaskStatus[], TaskRow>(`SELECT * FROM tasks WHERE status IN (${marks}) ORDER BY id`).all(...statuses);
}

export interface TaskListQuery {
  status?: TaskStatus;
  model?: string;
  clientId?: string;
  /** Cursor: list tasks older than this id (newest first). */
  after?: string;
  limit: number;
}

/**
 * The SQL of one task-list page, newest first, cursor-paged by id (ids sort by creation), one extra
 * row for has_more. Exported so a test can EXPLAIN exactly this statement: every filter
 * combination must walk an index (tasks_status, tasks_model, tasks_status_model or the primary
 * key) in id order, never scan the table or sort it.
 */
export function taskListStatement(q: TaskListQuery): { sql: string; params: Array<string | number> } {
  const where: string[] = [];
  const params: Array<string | number> = [];
  const add = (clause: string, value: string | undefined): void => {
    if (value === undefined || value === '') return;
    where.push(clause);
    params.push(value);
  };
  add('status = ?', q.status);
  add('model = ?', q.model);
  add('client_id = ?', q.clientId);
  add('id < ?', q.after);
  const sql = `SELECT * FROM tasks ${where.length ? 'WHERE ' + where.join(' AND ') : ''} ORDER BY id DESC LIMIT ?`;
  return { sql, params: [...params, q.limit + 1] };
}

export function listTasks(db: ReadableDB, q: TaskListQuery): { data: TaskRow[]; has_more: boolean } {
  const { sql, params } = taskListStatement(q);
  const rows = db.prepare<Array<string | number>, TaskRow>(sql).all(...params);
  return { data: rows.slice(0, q.limit), has_more: rows.length > q.limit };
}

export function countTasksByStatus(db: ReadableDB): Record<string, number> {
  const rows = db.prepare<[], { status: string; n: number }>('SELECT status, COUNT(*) AS n FROM tasks GROUP BY status').all();
  return Object.fromEntries(rows.map((r) => [r.status, r.n]));
}

const eventsAfter = cachedStatement<[string, number, number], EventRow>(
  'SELECT * FROM task_events WHERE task_id = ? AND sequence_number > ? ORDER BY sequence_number LIMIT ?',
);

export function eventRowsAfter(db: ReadableDB, taskId: string, after: number, limit: number): EventRow[] {
  return eventsAfter(db).all(taskId, after, limit);
}

export function toTaskEvent(row: EventRow, responseId: string): TaskEvent {
  const data: unknown = JSON.parse(row.data);
  const extra = typeof data === 'object' && data !== null ? data : {};
  return {
    type: row.type,
    sequence_number: row.sequence_number,
    task_id: row.task_id,
    response_id: responseId,
    created_at: row.created_at,
    ...extra,
  };
}

/**
 * The text the task has emitted in its current attempt: every committed delta of one type after the
 * last `response.queued` (a retry tells clients to drop partial text, so it starts a new attempt).
 * This is also the snapshot a `resume` continues from.
 */
const deltasOfAttempt = cachedStatement<[{ task: string; type: string }], { text: string | null }>(
  `SELECT group_concat(json_extract(data, '$.delta'), '') AS text FROM (
     SELECT data FROM task_events
     WHERE task_id = @task AND type = @type
       AND sequence_number > (SELECT COALESCE(MAX(sequence_number), 0) FROM task_events
                              WHERE task_id = @task AND type = 'response.queued')
     ORDER BY sequence_number)`,
);

export function emittedText(db: ReadableDB, taskId: string): string {
  return deltasOfAttempt(db).get({ task: taskId, type: 'response.output_text.delta' })?.text ?? '';
}

/** The same for the thinking of the current attempt (reasoning deltas). */
export function emittedReasoning(db: ReadableDB, taskId: string): string {
  return deltasOfAttempt(db).get({ task: taskId, type: 'response.reasoning_text.delta' })?.text ?? '';
}

/** Whether the current attempt's thought has ended (its reasoning_text.done is committed). */
const reasoningEnded = cachedStatement<[{ task: string }], { n: number }>(
  `SELECT COUNT(*) AS n FROM task_events
   WHERE task_id = @task AND type = 'response.reasoning_text.done'
     AND sequence_number > (SELECT COALESCE(MAX(sequence_number), 0) FROM task_events
                            WHERE task_id = @task AND type = 'response.queued')`,
);

export function reasoningHasEnded(db: ReadableDB, taskId: string): boolean {
  return (reasoningEnded(db).get({ task: taskId })?.n ?? 0) > 0;
}

/** A client's tasks not yet finished (a revoked client's are cancelled). */
export function unfinishedTasksOf(db: ReadableDB, clientId: string): string[] {
  return db
    .prepare<[string], { id: string }>("SELECT id FROM tasks WHERE client_id = ? AND status IN ('queued','loading','running','cancelling')")
    .all(clientId)
    .map((r) => r.id);
}

/** The request text of each of these responses (for the task list's prompt line), by response id. */
export function requestsOf(db: ReadableDB, responseIds: readonly string[]): Map<string, string> {
  if (responseIds.length === 0) return new Map();
  const marks = responseIds.map(() => '?').join(',');
  const rows = db.prepare<string[], { id: string; request: string }>(`SELECT id, request FROM responses WHERE id IN (${marks})`).all(...responseIds);
  return new Map(rows.map((r) => [r.id, r.request]));
}

/** When completion last began (or resumed) for a task: its newest response.in_progress event. */
export function completionStartedAt(db: ReadableDB, taskId: string): number | null {
  const row = db
    .prepare<[string], { at: number }>(
      "SELECT created_at AS at FROM task_events WHERE task_id = ? AND type = 'response.in_progress' ORDER BY sequence_number DESC LIMIT 1",
    )
    .get(taskId);
  return row?.at ?? null;
}
