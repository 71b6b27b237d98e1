// THE writer of task state and task events. Every status change is a compare-and-set on the old
// status, written in one transaction together with the events that report it and the next
// gap-free sequence numbers (LMSP §11.2). Text deltas are group-committed: buffered for up to
// 100 ms and written in one transaction, and always flushed inside any transition of their
// task, so no state change can overtake text that was generated before it. Listeners hear of
// events only after their transaction committed, so a client never sees text a crash can lose.
import type { FunctionCallItem, ReasoningItem } from '../contract/responses.js';
import type { Clock } from '../clock.js';
import { unixSeconds } from '../clock.js';
import { newId } from '../ids.js';
import type { Statement, Transaction } from 'better-sqlite3';
import { isWriteFailure } from '../store/disk.js';
import type { Db } from '../store/open.js';
import type { EventHub } from './event-hub.js';
import { emittedReasoning, emittedText, getResponseRow, getTask } from './queries.js';
import { appendTurn } from './conversations.js';
import { answerItems, inputItems, itemNames } from './items.js';
import { buildResponseObject, parseRequest } from './response-object.js';
import {
  isTaskStatus,
  isTerminal,
  type EventType,
  type OnRestart,
  type ResponseRequest,
  type ResponseRow,
  type TaskError,
  type TaskEvent,
  type TaskRow,
  type TaskStatus,
} from './types.js';

export interface EventSpec {
  type: EventType;
  fields?: Record<string, unknown>;
  /** Terminal events carry the full response object, built after the state change. */
  withResponse?: boolean;
}

export interface TransitionChange {
  from: readonly TaskStatus[];
  to: TaskStatus;
  events: EventSpec[];
  error?: TaskError | null;
  /** Set on completion; a turn of a conversation is added to it in the same transaction. */
  output?: {
    text: string;
    inputTokens: number;
    cachedTokens?: number;
    outputTokens: number;
    incompleteReason: string | null;
    truncatedItems?: number;
    calls?: FunctionCallItem[];
    /** What the model thought before it answered (kept before the calls in output_items). */
    reasoning?: ReasoningItem | null;
    /** Of outputTokens, those spent thinking. */
    reasoningTokens?: number;
    /** The stop text that ended the answer, when one did. */
    stopSequence?: string | null;
  };
  /** A retry: usage from the failed attempt is dropped. */
  resetOutput?: boolean;
}

export type TransitionResult = { ok: true; task: TaskRow; events: TaskEvent[] } | { ok: false; task: TaskRow | undefined };

export interface NewTask {
  clientId: string | null;
  model: string;
  request: ResponseRequest;
  metadata: Record<string, string> | null;
  background: boolean;
  store: boolean;
  onRestart: OnRestart;
  /** The response this one continues (checked by the caller: stored, finished, readable). */
  previousResponseId?: string | null;
  /** The conversation this turn belongs to (checked by the caller). */
  conversationId?: string | null;
}

// Each group commit is an fsync on the event loop, and llama.cpp waits for the loop between
// tokens. Measured on the tiny model (npm run bench): every 15 ms cost ~20% of the raw engine's
// speed, every 100 ms costs none; 100 ms is still ten text updates a second for a reader.
export type InTransaction = (task: TaskRow, response: ResponseRow) => void;
export type Created = { task: TaskRow; response: ResponseRow; event: TaskEvent };

const FLUSH_AFTER_MS = 100;
// The first text of a run is committed on the next turn of the loop, not after the window: a
// reader waits for the first words (time to first token was raw + 43..79 ms with the window alone,
// raw + ~8 ms now). Committing it inside the engine's callback instead cost ~15% of tokens/s.
const FLUSH_AT_COUNT = 256;
/** After a group commit failed (a full disk), how long before it is tried again. */
const FLUSH_RETRY_MS = 500;

/** Told of every commit and every failed one (store/disk-state.ts: the disk-full state). */
export interface WriteObserver {
  noteFailure(err: unknown): boolean;
  noteWriteOk(): void;
}

/**
 * A streamed event waiting for the next group commit: a text delta of the response's message at
 * output 0 (`delta`), or any event with its fields (reasoning deltas, the items opened and closed
 * around them), committed in the order appended.
 */
type Pending = { delta: string } | { type: EventType; fields: Record<string, unknown> };

export class TaskLedger {
  private pending = new Map<string, Pending[]>();
  /** Running tasks whose first text of this run has been flushed already. */
  private textStarted = new Set<string>();
  private flushTimer: NodeJS.Timeout | null = null;
  private flushFailed = false;
  private readonly statements = new Map<string, Statement>();
  private readonly queuedByClient = new Map<string, number>();
  /** One create in its own savepoint, made once (not per create: the accept path is hot). */
  private readonly insertOne: Transaction<(input: NewTask, inSameTransaction: InTransaction | undefined) => Created>;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly hub: EventHub,
    private readonly writes: WriteObserver = { noteFailure: () => false, noteWriteOk: () => undefined },
  ) {
    this.insertOne = db.transaction((input: NewTask, inSameTransaction: InTransaction | undefined) => this.insertNew(input, inSameTransaction));
    // Read once (the status index); from here on every create and transition keeps it right.
    for (const r of db
      .prepare<[], { client_id: string | null; n: number }>("SELECT client_id, COUNT(*) AS n FROM tasks WHERE status = 'queued' GROUP BY client_id")
      .all()) {
      this.queuedByClient.set(r.client_id ?? '', r.n);
    }
  }

  /** Tasks of one client (null: no client) in status `queued`, in constant time: the flood limit
   *  asks on every create, and a COUNT over the queued rows made each create scan them all. */
  queuedFor(clientId: string | null): number {
    return this.queuedByClient.get(clientId ?? '') ?? 0;
  }

  private countQueued(clientId: string | null, delta: number): void {
    const key = clientId ?? '';
    const n = (this.queuedByClient.get(key) ?? 0) + delta;
    if (n > 0) this.queuedByClient.set(key, n);
    else this.queuedByClient.delete(key);
  }

  /**
   * Runs one write transaction. If it fails (a full disk, an I/O error) nothing of it happened:
   * the text it would have flushed goes back to the buffer, so a later commit still writes every
   * delta in order and the text a client sees has no hole.
   */
  private write<T>(body: () => T): T {
    const before = new Map(this.pending);
    try {
      const result = this.db.transaction(body)();
      this.writes.noteWriteOk();
      return result;
    } catch (err) {
      this.pending = before;
      this.writes.noteFailure(err);
      throw err;
    }
  }

  /** Inserts the response, its task and `response.created` in one transaction. */
  create(input: NewTask, inSameTransaction?: InTransaction): Created {
    const [result] = this.createMany([{ input, inSameTransaction }]);
    if (!result) throw new Error('createMany returned nothing');
    if (result instanceof Error) throw result;
    return result;
  }

  /**
   * Several creates under one commit (one fsync), each in its own savepoint: one that fails (its
   * callback threw) rolls back alone and comes back as an Error in its place.
   */
  createMany(items: ReadonlyArray<{ input: NewTask; inSameTransaction?: InTransaction | undefined }>): Array<Created | Error> {
    const results =
      this.createAllOrNothing(items) ??
      this.write(() =>
        items.map((item) => {
          try {
            return this.insertOne(item.input, item.inSameTransaction);
          } catch (err) {
            this.writes.noteFailure(err);
            return err instanceof Error ? err : new Error(String(err));
          }
        }),
      );
    for (const r of results) if (!(r instanceof Error)) this.countQueued(r.task.client_id, 1);
    this.hub.publish(results.flatMap((r) => (r instanceof Error ? [] : [r.event])));
    return results;
  }

  /**
   * The usual batch, where no create can fail alone: all of them in one transaction without a
   * savepoint each (a savepoint per create cost ~15% of the accept path). If anything throws, the
   * whole transaction rolls back and undefined sends the batch the slow way, one savepoint each,
   * so the one that failed fails alone. A write failure (a full disk) is the caller's, as before.
   */
  private createAllOrNothing(items: ReadonlyArray<{ input: NewTask; inSameTransaction?: InTransaction | undefined }>): Created[] | undefined {
    try {
      return this.write(() => items.map((item) => this.insertNew(item.input, item.inSameTransaction)));
    } catch (err) {
      if (isWriteFailure(err)) throw err;
      return undefined;
    }
  }

  private insertNew(input: NewTask, inSameTransaction: InTransaction | undefined): Created {
    const now = unixSeconds(this.clock);
    const id = newId('resp');
    const names = itemNames(id);
    const response: ResponseRow = {
      id,
      previous_response_id: input.previousResponseId ?? null,
      conversation_id: input.conversationId ?? null,
      truncated_items: 0,
      output_items: null,
      client_id: input.clientId,
      model: input.model,
      item_id: names.answer,
      request: JSON.stringify(withItemIds(input.request, names.input)),
      metadata: input.metadata ? JSON.stringify(input.metadata) : null,
      background: input.background ? 1 : 0,
      store: input.store ? 1 : 0,
      output_text: null,
      incomplete_reason: null,
      reasoning_tokens: null,
      stop_sequence: null,
      input_tokens: null,
      cached_tokens: null,
      output_tokens: null,
      created_at: now,
    };
    const task: TaskRow = {
      id: newId('task'),
      response_id: response.id,
      client_id: input.clientId,
      model: input.model,
      status: 'queued',
      on_restart: input.onRestart,
      last_sequence_number: 1,
      output_tokens: 0,
      error_code: null,
      error_message: null,
      created_at: now,
      updated_at: now,
    };
    this.stmt(
      `INSERT INTO responses(id, client_id, model, item_id, request, metadata, background, store, created_at, previous_response_id, conversation_id)
       VALUES (@id, @client_id, @model, @item_id, @request, @metadata, @background, @store, @created_at, @previous_response_id, @conversation_id)`,
    ).run(response);
    this.stmt(
      `INSERT INTO tasks(id, response_id, client_id, model, status, on_restart, last_sequence_number, created_at, updated_at)
       VALUES (@id, @response_id, @client_id, @model, @status, @on_restart, @last_sequence_number, @created_at, @updated_at)`,
    ).run(task);
    const event = this.insertEvent(task, 1, 'response.created', { response: buildResponseObject(response, task, '') }, now);
    inSameTransaction?.(task, response);
    return { task, response, event };
  }

  /** Compare-and-set of a task's status with its events, in one transaction. */
  transition(taskId: string, change: TransitionChange): TransitionResult {
    let previous: TaskStatus | null = null;
    const result = this.write((): TransitionResult => {
      const before = getTask(this.db, taskId);
      if (!before || !change.from.includes(before.status)) return { ok: false, task: before };
      previous = before.status;
      const flushed = this.flushTaskInTransaction(before);
      const now = unixSeconds(this.clock);
      const seq0 = flushed.at(-1)?.sequence_number ?? before.last_sequence_number;
      const task: TaskRow = {
        ...before,
        status: change.to,
        updated_at: now,
        last_sequence_number: seq0 + change.events.length,
        error_code: change.error === undefined ? before.error_code : (change.error?.code ?? null),
        error_message: change.error === undefined ? before.error_message : (change.error?.message ?? null),
        output_tokens: change.output ? change.output.outputTokens : change.resetOutput ? 0 : before.output_tokens,
      };
      this.stmt(
        `UPDATE tasks SET status = @status, updated_at = @updated_at, last_sequence_number = @last_sequence_number,
             error_code = @error_code, error_message = @error_message, output_tokens = @output_tokens
           WHERE id = @id AND status = @previous`,
      ).run({ ...task, previous: before.status });
      if (change.output) {
        const o = change.output;
        const items = [...(o.reasoning ? [o.reasoning] : []), ...(o.calls ?? [])];
        this.stmt(
          `UPDATE responses SET output_text = ?, input_tokens = ?, cached_tokens = ?, output_tokens = ?, reasoning_tokens = ?,
             stop_sequence = ?, incomplete_reason = ?, truncated_items = ?, output_items = ? WHERE id = ?`,
        ).run(
          o.text,
          o.inputTokens,
          o.cachedTokens ?? 0,
          o.outputTokens,
          o.reasoningTokens ?? 0,
          o.stopSequence ?? null,
          o.incompleteReason,
          o.truncatedItems ?? 0,
          items.length > 0 ? JSON.stringify(items) : null,
          task.response_id,
        );
        this.addTurnToConversation(task, o.text, o.incompleteReason, now);
      } else if (change.resetOutput) {
        this.stmt('UPDATE responses SET input_tokens = NULL, cached_tokens = NULL, output_tokens = NULL, reasoning_tokens = NULL WHERE id = ?').run(
          task.response_id,
        );
      }
      const events = change.events.map((spec, i) => {
        const fields = spec.withResponse ? { ...spec.fields, response: this.responseObject(task) } : (spec.fields ?? {});
        return this.insertEvent(task, seq0 + i + 1, spec.type, fields, now);
      });
      return { ok: true, task, events: [...flushed, ...events] };
    });
    if (result.ok) {
      // A run that ended (or went back to the queue) starts its text afresh next time.
      if (result.task.status !== 'running') this.textStarted.delete(taskId);
      if (previous === 'queued' && result.task.status !== 'queued') this.countQueued(result.task.client_id, -1);
      if (previous !== 'queued' && result.task.status === 'queued') this.countQueued(result.task.client_id, 1);
      this.hub.publish(result.events);
    }
    return result;
  }

  /** Buffers one piece of generated text (of the message at output 0) for the next group commit. */
  appendDelta(taskId: string, delta: string): void {
    if (delta.length === 0) return;
    this.append(taskId, [{ delta }]);
  }

  /** Buffers streamed events with their fields, in order, for the next group commit (tasks/answer-stream.ts). */
  appendEvents(taskId: string, events: ReadonlyArray<{ type: EventType; fields: Record<string, unknown> }>): void {
    if (events.length > 0) this.append(taskId, events);
  }

  private append(taskId: string, entries: readonly Pending[]): void {
    let list = this.pending.get(taskId);
    if (!list) {
      list = [];
      this.pending.set(taskId, list);
    }
    list.push(...entries);
    const first = !this.textStarted.has(taskId);
    if (first) this.textStarted.add(taskId);
    // While a failed commit waits for its retry, more text only waits with it.
    if (list.length >= FLUSH_AT_COUNT && !this.flushFailed) this.flush();
    else if (first && !this.flushFailed) {
      if (this.flushTimer) clearTimeout(this.flushTimer);
      this.flushTimer = setTimeout(() => this.flush(), 0);
    } else if (!this.flushTimer) this.flushTimer = setTimeout(() => this.flush(), FLUSH_AFTER_MS);
  }

  /**
   * Commits every buffered delta of every task in one transaction. A commit that fails for the
   * storage's sake keeps the text buffered and tries again shortly (returns false).
   */
  flush(): boolean {
    if (this.flushTimer) clearTimeout(this.flushTimer);
    this.flushTimer = null;
    if (this.pending.size === 0) return true;
    let events: TaskEvent[];
    try {
      events = this.write(() => {
        const out: TaskEvent[] = [];
        for (const taskId of [...this.pending.keys()]) {
          const task = getTask(this.db, taskId);
          if (task) out.push(...this.flushTaskInTransaction(task));
          else this.pending.delete(taskId);
        }
        return out;
      });
    } catch (err) {
      if (!isWriteFailure(err)) throw err;
      this.flushFailed = true;
      this.flushTimer = setTimeout(() => this.flush(), FLUSH_RETRY_MS);
      return false;
    }
    this.flushFailed = false;
    this.hub.publish(events);
    return true;
  }

  /** Stops the group-commit timer (shutdown); buffered text stays for a last flush(). */
  stopTimer(): void {
    if (this.flushTimer) clearTimeout(this.flushTimer);
    this.flushTimer = null;
  }

  /** Drops text still buffered for a task (its generation ended without a committed outcome). */
  discardPending(taskId: string): void {
    this.pending.delete(taskId);
  }

  /** Writes a task's buffered deltas; text only counts while the task is running. */
  private flushTaskInTransaction(task: TaskRow): TaskEvent[] {
    const deltas = this.pending.get(task.id);
    this.pending.delete(task.id);
    if (!deltas || deltas.length === 0 || task.status !== 'running') return [];
    const response = getResponseRow(this.db, task.response_id);
    const now = unixSeconds(this.clock);
    const events = deltas.map((entry, i) =>
      'delta' in entry
        ? this.insertEvent(
            task,
            task.last_sequence_number + i + 1,
            'response.output_text.delta',
            { item_id: response?.item_id ?? null, output_index: 0, content_index: 0, delta: entry.delta },
            now,
          )
        : this.insertEvent(task, task.last_sequence_number + i + 1, entry.type, entry.fields, now),
    );
    task.last_sequence_number += deltas.length;
    this.stmt('UPDATE tasks SET last_sequence_number = ?, updated_at = ? WHERE id = ?').run(task.last_sequence_number, now, task.id);
    return events;
  }

  /** A completed turn of a conversation: its input and its answer, in this same transaction. */
  private addTurnToConversation(task: TaskRow, text: string, incompleteReason: string | null, nowS: number): void {
    const row = getResponseRow(this.db, task.response_id);
    if (!row?.conversation_id) return;
    const request = parseRequest(row);
    const answer = answerItems(row, request, text, incompleteReason ? 'incomplete' : 'completed');
    appendTurn(this.db, row.conversation_id, [...inputItems(request), ...answer], row.id, nowS);
  }

  private stmt(sql: string): Statement {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }

  private insertEvent(task: TaskRow, seq: number, type: string, fields: Record<string, unknown>, now: number): TaskEvent {
    this.stmt('INSERT INTO task_events(task_id, sequence_number, type, data, created_at) VALUES (?, ?, ?, ?, ?)').run(
      task.id,
      seq,
      type,
      JSON.stringify(fields),
      now,
    );
    return { type, sequence_number: seq, task_id: task.id, response_id: task.response_id, created_at: now, ...fields };
  }

  private responseObject(task: TaskRow): ReturnType<typeof buildResponseObject> {
    const row = getResponseRow(this.db, task.response_id);
    if (!row) throw new Error(`Response ${task.response_id} of task ${task.id} is missing.`);
    const thought = row.output_text === null ? emittedReasoning(this.db, task.id) : '';
    return buildResponseObject(row, task, row.output_text ?? emittedText(this.db, task.id), thought);
  }
}

/** A request whose new input items (id '') are named after their response. */
function withItemIds(request: ResponseRequest, name: (position: number) => string): ResponseRequest {
  if (typeof request.input === 'string') return request;
  return { ...request, input: request.input.map((item, i) => ('id' in item && item.id === '' ? { ...item, id: name(i) } : item)) };
}

/** One finished response as another store holds it: its row, its task's row, every event's row. */
export interface FinishedTaskRows {
  response: Record<string, unknown>;
  task: Record<string, unknown>;
  events: Array<Record<string, unknown>>;
}

function insertRow(db: Db, table: 'responses' | 'tasks' | 'task_events', row: Record<string, unknown>, columns: readonly string[]): void {
  const names = columns.filter((c) => Object.hasOwn(row, c));
  db.prepare(`INSERT INTO ${table} (${names.map((c) => `"${c}"`).join(', ')}) VALUES (${names.map(() => '?').join(', ')})`).run(...names.map((c) => row[c]));
}

/** The live table's own columns: only those are copied (a forged store cannot name others). */
function columnsOf(db: Db, table: 'responses' | 'tasks' | 'task_events'): string[] {
  return db
    .prepare<[], { name: string }>(`SELECT name FROM pragma_table_info('${table}')`)
    .all()
    .map((c) => c.name);
}

/**
 * Adds finished tasks copied whole from another store (a generation: history/bring-back.ts), with
 * their own ids and their gap-free sequence numbers as they were. Runs inside the caller's
 * transaction; a task that is not terminal is refused (nothing would ever run or end it here).
 */
export function adoptFinishedTasks(db: Db, rows: readonly FinishedTaskRows[]): void {
  const columns = { responses: columnsOf(db, 'responses'), tasks: columnsOf(db, 'tasks'), task_events: columnsOf(db, 'task_events') };
  for (const r of rows) {
    const status = r.task.status;
    if (typeof status !== 'string' || !isTaskStatus(status) || !isTerminal(status))
      throw new Error(`Task ${String(r.task.id)} is not finished; only finished tasks can be brought back.`);
    insertRow(db, 'responses', r.response, columns.responses);
    insertRow(db, 'tasks', r.task, columns.tasks);
    for (const e of r.events) insertRow(db, 'task_events', e, columns.task_events);
  }
}
