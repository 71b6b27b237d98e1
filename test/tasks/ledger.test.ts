// TaskLedger, the one writer of task state and events: creation is one transaction, transitions
// are compare-and-set, sequence numbers and last_sequence_number move together without gaps, and
// buffered text deltas are committed inside the next transition or dropped once the task stopped.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ManualClock, unixSeconds } from '../../src/clock.js';
import { openStore, type Db } from '../../src/store/open.js';
import { EventHub } from '../../src/tasks/event-hub.js';
import { TaskLedger, type NewTask } from '../../src/tasks/ledger.js';
import type { ResponseRequest, TaskEvent, TaskRow } from '../../src/tasks/types.js';
import { field, waitFor } from '../harness/api.js';

const REQUEST: ResponseRequest = { input: 'hi', instructions: null, max_output_tokens: 8, temperature: null, top_p: null };

function newTask(over: Partial<NewTask> = {}): NewTask {
  return { clientId: null, model: 'tiny', request: REQUEST, metadata: null, background: true, store: true, onRestart: 'fail', ...over };
}

function setup(): { db: Db; clock: ManualClock; hub: EventHub; ledger: TaskLedger; close(): void } {
  const db = openStore(':memory:');
  const clock = new ManualClock(1_800_000_000_000);
  const hub = new EventHub();
  const ledger = new TaskLedger(db, clock, hub);
  // Flush first: a pending group-commit timer must not fire on a closed database.
  const close = (): void => {
    ledger.flush();
    db.close();
  };
  return { db, clock, hub, ledger, close };
}

interface StoredEvent {
  sequence_number: number;
  type: string;
  data: string;
  created_at: number;
}

function events(db: Db, taskId: string): StoredEvent[] {
  return db
    .prepare<[string], StoredEvent>('SELECT sequence_number, type, data, created_at FROM task_events WHERE task_id = ? ORDER BY sequence_number')
    .all(taskId);
}

function taskRow(db: Db, id: string): TaskRow {
  const row = db.prepare<[string], TaskRow>('SELECT * FROM tasks WHERE id = ?').get(id);
  assert.ok(row, `task ${id} exists`);
  return row;
}

function count(db: Db, table: string): number {
  return db.prepare<[], { n: number }>(`SELECT COUNT(*) AS n FROM ${table}`).get()?.n ?? -1;
}

/** queued → loading → running, as the runner does it. */
function toRunning(ledger: TaskLedger, id: string): void {
  assert.ok(ledger.transition(id, { from: ['queued'], to: 'loading', events: [{ type: 'response.loading' }] }).ok);
  assert.ok(ledger.transition(id, { from: ['loading'], to: 'running', events: [{ type: 'response.in_progress' }] }).ok);
}

function assertGapFree(db: Db, id: string): void {
  const seqs = events(db, id).map((e) => e.sequence_number);
  assert.deepEqual(
    seqs,
    seqs.map((_, i) => i + 1),
    'sequence numbers are 1..N',
  );
  assert.equal(taskRow(db, id).last_sequence_number, seqs.length, 'last_sequence_number is the last event');
}

test('create writes the response, the task and response.created (seq 1) in one transaction', (t) => {
  const s = setup();
  t.after(() => s.close());
  const made = s.ledger.create(newTask({ metadata: { k: 'v' } }));
  assert.equal(made.task.status, 'queued');
  assert.equal(made.task.last_sequence_number, 1);
  assert.equal(taskRow(s.db, made.task.id).response_id, made.response.id);
  const resp = s.db.prepare<[string], { model: string; request: string; metadata: string }>('SELECT * FROM responses WHERE id = ?').get(made.response.id);
  assert.equal(resp?.model, 'tiny');
  assert.deepEqual(JSON.parse(resp?.request ?? 'null'), REQUEST);
  assert.deepEqual(JSON.parse(resp?.metadata ?? 'null'), { k: 'v' });
  const stored = events(s.db, made.task.id);
  assert.equal(stored.length, 1);
  assert.equal(stored[0]?.sequence_number, 1);
  assert.equal(stored[0]?.type, 'response.created');
  assert.equal(field(JSON.parse(stored[0]?.data ?? '{}'), 'response', 'id'), made.response.id);
  assert.equal(field(JSON.parse(stored[0]?.data ?? '{}'), 'response', 'status'), 'queued');

  // If anything in the same transaction fails, none of the three rows exists.
  const before = [count(s.db, 'responses'), count(s.db, 'tasks'), count(s.db, 'task_events')];
  assert.throws(
    () =>
      s.ledger.create(newTask(), () => {
        s.db.prepare("INSERT INTO service_config(key, value, updated_at) VALUES ('side', '1', 1)").run();
        throw new Error('reply could not be stored');
      }),
    /reply could not be stored/,
  );
  assert.deepEqual([count(s.db, 'responses'), count(s.db, 'tasks'), count(s.db, 'task_events')], before);
  assert.equal(count(s.db, 'service_config'), 0, 'the callback ran inside the rolled-back transaction');
});

test('transition is a compare-and-set: a wrong `from` changes nothing and writes no event', (t) => {
  const s = setup();
  t.after(() => s.close());
  const { task } = s.ledger.create(newTask());
  const published: TaskEvent[] = [];
  s.hub.subscribe(task.id, (e) => published.push(e));
  s.clock.advance(5_000);

  const wrong = s.ledger.transition(task.id, { from: ['running'], to: 'completed', events: [{ type: 'response.completed', withResponse: true }] });
  assert.equal(wrong.ok, false);
  assert.equal(wrong.task?.status, 'queued');
  const after = taskRow(s.db, task.id);
  assert.deepEqual(after, { ...task }, 'the row is untouched, updated_at included');
  assert.equal(events(s.db, task.id).length, 1);
  assert.equal(published.length, 0, 'nothing was published');
  assert.equal(s.ledger.transition('task_unknown', { from: ['queued'], to: 'loading', events: [] }).ok, false);

  toRunning(s.ledger, task.id);
  assert.equal(taskRow(s.db, task.id).updated_at, unixSeconds(s.clock));
  // A cancel accepted first means a completion arriving later cannot win.
  assert.ok(s.ledger.transition(task.id, { from: ['running'], to: 'cancelling', events: [{ type: 'response.cancelling' }] }).ok);
  const late = s.ledger.transition(task.id, {
    from: ['running'],
    to: 'completed',
    output: { text: 'done', inputTokens: 1, outputTokens: 1, incompleteReason: null },
    events: [{ type: 'response.completed', withResponse: true }],
  });
  assert.equal(late.ok, false);
  assert.equal(taskRow(s.db, task.id).status, 'cancelling');
  assert.ok(!events(s.db, task.id).some((e) => e.type === 'response.completed'));
  const out = s.db.prepare<[string], { output_text: string | null }>('SELECT output_text FROM responses WHERE id = ?').get(task.response_id);
  assert.equal(out?.output_text, null, 'the losing completion stored no output');
  assert.deepEqual(
    published.map((e) => e.type),
    ['response.loading', 'response.in_progress', 'response.cancelling'],
  );
});

test('events and last_sequence_number advance together; listeners get exactly what was stored', (t) => {
  const s = setup();
  t.after(() => s.close());
  const { task } = s.ledger.create(newTask());
  const published: TaskEvent[] = [];
  s.hub.subscribe(task.id, (e) => published.push(e));
  const r = s.ledger.transition(task.id, {
    from: ['queued'],
    to: 'loading',
    events: [{ type: 'response.queued', fields: { reason: 'x' } }, { type: 'response.loading' }, { type: 'response.loading' }],
  });
  assert.ok(r.ok);
  assert.equal(r.task.last_sequence_number, 4);
  assert.equal(taskRow(s.db, task.id).last_sequence_number, 4);
  assert.deepEqual(
    r.events.map((e) => e.sequence_number),
    [2, 3, 4],
  );
  assert.deepEqual(
    published.map((e) => [e.sequence_number, e.type]),
    events(s.db, task.id)
      .slice(1)
      .map((e) => [e.sequence_number, e.type]),
  );
  assert.equal(published[0]?.reason, 'x');
  assertGapFree(s.db, task.id);
});

test('buffered deltas are committed inside the next transition, before its own events', (t) => {
  const s = setup();
  t.after(() => s.close());
  const { task } = s.ledger.create(newTask());
  toRunning(s.ledger, task.id);
  s.ledger.appendDelta(task.id, 'Hel');
  s.ledger.appendDelta(task.id, 'lo');
  assert.equal(events(s.db, task.id).filter((e) => e.type === 'response.output_text.delta').length, 0, 'still buffered');

  // A failure without output: the response it carries must already include the buffered text.
  const r = s.ledger.transition(task.id, {
    from: ['running'],
    to: 'failed',
    error: { code: 'engine_error', message: 'x' },
    events: [{ type: 'response.failed', withResponse: true }],
  });
  assert.ok(r.ok);
  assert.deepEqual(
    r.events.map((e) => e.type),
    ['response.output_text.delta', 'response.output_text.delta', 'response.failed'],
  );
  const stored = events(s.db, task.id);
  assert.deepEqual(
    stored.slice(-3).map((e) => [e.type, e.sequence_number]),
    [
      ['response.output_text.delta', 4],
      ['response.output_text.delta', 5],
      ['response.failed', 6],
    ],
  );
  assert.deepEqual(
    stored.slice(-3, -1).map((e) => field(JSON.parse(e.data), 'delta')),
    ['Hel', 'lo'],
  );
  const failed: unknown = JSON.parse(stored.at(-1)?.data ?? '{}');
  assert.equal(field(failed, 'response', 'output', 0, 'content', 0, 'text'), 'Hello');
  assert.equal(field(failed, 'response', 'error', 'code'), 'engine_error');
  assertGapFree(s.db, task.id);
});

test('deltas are group-committed on their own while running, and dropped once the task stopped', async (t) => {
  const s = setup();
  t.after(() => s.close());
  const { task } = s.ledger.create(newTask());
  toRunning(s.ledger, task.id);
  s.ledger.appendDelta(task.id, 'a');
  await waitFor(() => events(s.db, task.id).some((e) => e.type === 'response.output_text.delta'), 5_000, 'the timed flush');
  assertGapFree(s.db, task.id);

  assert.ok(s.ledger.transition(task.id, { from: ['running'], to: 'cancelling', events: [{ type: 'response.cancelling' }] }).ok);
  const seqBefore = taskRow(s.db, task.id).last_sequence_number;
  s.ledger.appendDelta(task.id, 'late');
  s.ledger.flush();
  assert.equal(taskRow(s.db, task.id).last_sequence_number, seqBefore, 'no delta after the task stopped running');
  s.ledger.appendDelta(task.id, 'later');
  const r = s.ledger.transition(task.id, { from: ['cancelling'], to: 'cancelled', events: [{ type: 'response.cancelled', withResponse: true }] });
  assert.ok(r.ok);
  assert.deepEqual(
    r.events.map((e) => e.type),
    ['response.cancelled'],
  );
  const stored = events(s.db, task.id);
  assert.ok(!stored.some((e) => e.data.includes('late')), 'late text never reached the log');
  assert.equal(field(JSON.parse(stored.at(-1)?.data ?? '{}'), 'response', 'output', 0, 'content', 0, 'text'), 'a');
  assertGapFree(s.db, task.id);

  // discardPending drops text of a generation that ended without an outcome.
  const other = s.ledger.create(newTask()).task;
  toRunning(s.ledger, other.id);
  s.ledger.appendDelta(other.id, 'gone');
  s.ledger.discardPending(other.id);
  s.ledger.flush();
  assert.ok(!events(s.db, other.id).some((e) => e.type === 'response.output_text.delta'));
});

test('sequence numbers stay gap-free across many deltas, count flushes and interleaved tasks', (t) => {
  const s = setup();
  t.after(() => s.close());
  const a = s.ledger.create(newTask()).task;
  const b = s.ledger.create(newTask()).task;
  const seen = new Map<string, number[]>();
  for (const id of [a.id, b.id]) s.hub.subscribe(id, (e) => seen.set(id, [...(seen.get(id) ?? []), e.sequence_number]));
  toRunning(s.ledger, a.id);
  toRunning(s.ledger, b.id);
  for (let i = 0; i < 600; i++) {
    s.ledger.appendDelta(i % 3 === 0 ? b.id : a.id, String(i % 10));
    if (i === 300) s.ledger.transition(b.id, { from: ['running'], to: 'running', events: [{ type: 'response.in_progress', fields: { resumed: true } }] });
  }
  s.ledger.appendDelta(a.id, ''); // empty text is not an event
  assert.ok(s.ledger.transition(a.id, { from: ['running'], to: 'completed', events: [{ type: 'response.completed', withResponse: true }] }).ok);
  s.ledger.flush();
  assertGapFree(s.db, a.id);
  assertGapFree(s.db, b.id);
  assert.equal(events(s.db, a.id).filter((e) => e.type === 'response.output_text.delta').length, 400);
  assert.equal(events(s.db, b.id).filter((e) => e.type === 'response.output_text.delta').length, 200);
  for (const id of [a.id, b.id]) {
    const got = seen.get(id) ?? [];
    assert.deepEqual(
      got,
      got.map((_, i) => i + 2),
      `task ${id} published in order without gaps`,
    );
    assert.equal(got.at(-1), taskRow(s.db, id).last_sequence_number);
  }
  assert.equal(events(s.db, a.id).at(-1)?.type, 'response.completed', 'the terminal event is the last');
});
