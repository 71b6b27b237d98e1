// Retention (LMSP §11.2): terminal tasks older than the period go with their events and
// responses; unfinished tasks stay whatever their age.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ManualClock, unixSeconds } from '../../src/clock.js';
import { openStore, type Db } from '../../src/store/open.js';
import { EventHub } from '../../src/tasks/event-hub.js';
import { TaskLedger } from '../../src/tasks/ledger.js';
import { deleteTerminalResponse, sweepIdempotencyKeys, sweepTerminalTasks, sweepUnstoredResponses } from '../../src/tasks/retention.js';
import type { TaskRow, TaskStatus } from '../../src/tasks/types.js';
import type { Deletion } from '../../src/store/deletion-journal.js';

/** A journal kept in memory: what the sweeps wrote to it. */
class Journal {
  entries: Deletion[] = [];
  record(e: readonly Deletion[]): void {
    this.entries.push(...e);
  }
}

const journal = new Journal();

const DAY_MS = 86_400_000;

function setup(): { db: Db; clock: ManualClock; ledger: TaskLedger; close: () => void } {
  const db = openStore(':memory:');
  const clock = new ManualClock(1_800_000_000_000);
  const ledger = new TaskLedger(db, clock, new EventHub());
  const close = (): void => {
    ledger.flush();
    db.close();
  };
  return { db, clock, ledger, close };
}

/** A task driven through the ledger into `status` at the clock's current time. */
function taskIn(ledger: TaskLedger, status: TaskStatus): TaskRow {
  const { task } = ledger.create({
    clientId: null,
    model: 'tiny',
    request: { input: 'hi', instructions: null, max_output_tokens: 4, temperature: null, top_p: null },
    metadata: null,
    background: true,
    store: true,
    onRestart: 'fail',
  });
  const path: Record<TaskStatus, TaskStatus[]> = {
    queued: [],
    loading: ['loading'],
    running: ['loading', 'running'],
    cancelling: ['loading', 'running', 'cancelling'],
    completed: ['loading', 'running', 'completed'],
    failed: ['loading', 'failed'],
    cancelled: ['cancelled'],
  };
  let from: TaskStatus = 'queued';
  for (const to of path[status]) {
    const r = ledger.transition(task.id, { from: [from], to, events: [{ type: 'response.loading' }] });
    assert.ok(r.ok, `${from} → ${to}`);
    from = to;
  }
  return { ...task, status };
}

function has(db: Db, t: TaskRow): { task: boolean; response: boolean; events: number } {
  return {
    task: db.prepare('SELECT 1 FROM tasks WHERE id = ?').get(t.id) !== undefined,
    response: db.prepare('SELECT 1 FROM responses WHERE id = ?').get(t.response_id) !== undefined,
    events: db.prepare<[string], { n: number }>('SELECT COUNT(*) AS n FROM task_events WHERE task_id = ?').get(t.id)?.n ?? -1,
  };
}

test('the sweep removes only terminal tasks older than the period, with their events and responses', (t) => {
  const s = setup();
  t.after(() => s.close());
  const oldTerminal = (['completed', 'failed', 'cancelled'] as const).map((st) => taskIn(s.ledger, st));
  const oldUnfinished = (['queued', 'loading', 'running', 'cancelling'] as const).map((st) => taskIn(s.ledger, st));
  // Unfinished for ten years: still never swept.
  s.db.prepare('UPDATE tasks SET created_at = 0, updated_at = 0 WHERE id = ?').run(oldUnfinished[0]?.id ?? '');
  // Created long ago but finished recently: age counts from the end, so it stays.
  const lateFinisher = taskIn(s.ledger, 'running');

  s.clock.advance(29 * DAY_MS);
  assert.ok(s.ledger.transition(lateFinisher.id, { from: ['running'], to: 'completed', events: [{ type: 'response.completed' }] }).ok);
  const recent = taskIn(s.ledger, 'completed');
  s.clock.advance(2 * DAY_MS);
  const eventsBefore = [...oldUnfinished, lateFinisher, recent].map((x) => has(s.db, x).events);

  const removed = sweepTerminalTasks(s.db, unixSeconds(s.clock), 30, journal);

  assert.equal(removed, 3);
  const swept = journal.entries.filter((e) => e.why === 'retention').map((e) => e.id);
  for (const x of oldTerminal) assert.ok(swept.includes(x.response_id), `${x.status} journalled as retention`);
  for (const x of [...oldUnfinished, lateFinisher, recent]) assert.ok(!swept.includes(x.response_id), 'a kept one is not journalled');
  for (const x of oldTerminal) assert.deepEqual(has(s.db, x), { task: false, response: false, events: 0 }, `${x.status} swept`);
  [...oldUnfinished, lateFinisher, recent].forEach((x, i) => {
    assert.deepEqual(has(s.db, x), { task: true, response: true, events: eventsBefore[i] }, `${x.status} ${x.id} kept whole`);
  });
  assert.equal(sweepTerminalTasks(s.db, unixSeconds(s.clock), 30, journal), 0, 'a second sweep finds nothing');
  // Even a retention of one day leaves every unfinished task alone.
  s.clock.advance(3650 * DAY_MS);
  assert.equal(sweepTerminalTasks(s.db, unixSeconds(s.clock), 1, journal), 2);
  for (const x of oldUnfinished) assert.equal(has(s.db, x).task, true, `${x.status} never swept`);
});

test('the period is measured exactly: a task one second past it goes, one at it stays', (t) => {
  const s = setup();
  t.after(() => s.close());
  const first = taskIn(s.ledger, 'completed');
  s.clock.advance(1000);
  const second = taskIn(s.ledger, 'cancelled');
  const now = unixSeconds(s.clock) + 7 * 86_400; // `second` is exactly 7 days old, `first` a second more
  assert.equal(sweepTerminalTasks(s.db, now, 7, journal), 1);
  assert.equal(has(s.db, first).task, false);
  assert.equal(has(s.db, second).task, true);
});

test('the sweep works through more terminal tasks than one batch, and no unfinished one', (t) => {
  const s = setup();
  t.after(() => s.close());
  const terminal = Array.from({ length: 1_050 }, (_, i) => taskIn(s.ledger, i % 2 ? 'cancelled' : 'failed'));
  const waiting = Array.from({ length: 3 }, () => taskIn(s.ledger, 'queued'));
  s.clock.advance(40 * DAY_MS);
  assert.equal(sweepTerminalTasks(s.db, unixSeconds(s.clock), 30, journal), terminal.length);
  assert.equal(s.db.prepare<[], { n: number }>('SELECT COUNT(*) AS n FROM tasks').get()?.n, waiting.length);
  assert.equal(s.db.prepare<[], { n: number }>('SELECT COUNT(*) AS n FROM responses').get()?.n, waiting.length);
  const leftEvents = s.db.prepare<[], { n: number }>('SELECT COUNT(*) AS n FROM task_events').get()?.n;
  assert.equal(leftEvents, waiting.length, 'only the queued tasks’ response.created events remain');
});

test('expired idempotency keys are swept, live ones kept', (t) => {
  const s = setup();
  t.after(() => s.close());
  const insert = s.db.prepare(
    "INSERT INTO idempotency_keys(client_id, key, fingerprint, state, boot_id, created_at, expires_at) VALUES ('c', ?, 'f', 'done', 'b', 0, ?)",
  );
  insert.run('old', 99);
  insert.run('live', 101);
  assert.equal(sweepIdempotencyKeys(s.db, 100), 1);
  const keys = s.db
    .prepare<[], { key: string }>('SELECT key FROM idempotency_keys')
    .all()
    .map((r) => r.key);
  assert.deepEqual(keys, ['live']);
});

test('deleting one response refuses unfinished tasks and removes a terminal one whole', (t) => {
  const s = setup();
  t.after(() => s.close());
  const running = taskIn(s.ledger, 'running');
  const done = taskIn(s.ledger, 'completed');
  assert.equal(deleteTerminalResponse(s.db, running.response_id, journal, 1), 'not_terminal');
  assert.deepEqual(has(s.db, running).task, true);
  assert.equal(deleteTerminalResponse(s.db, done.response_id, journal, 1), 'deleted');
  assert.deepEqual(has(s.db, done), { task: false, response: false, events: 0 });
  assert.equal(deleteTerminalResponse(s.db, done.response_id, journal, 1), 'not_found');
  assert.deepEqual(
    journal.entries.filter((e) => e.id === done.response_id || e.id === running.response_id),
    [{ kind: 'response', id: done.response_id, at: 1, why: 'deleted' }],
    'the deleted one is journalled once, the refused one not',
  );
});

test('store: false responses left terminal by a crash are swept after a grace period, stored ones are not', () => {
  const { db, clock, ledger, close } = setup();
  try {
    const make = (store: boolean): string => {
      const { task } = ledger.create({
        clientId: null,
        model: 'tiny',
        request: { input: 'x', instructions: null, max_output_tokens: 1, temperature: null, top_p: null },
        metadata: null,
        background: false,
        store,
        onRestart: 'fail',
      });
      ledger.transition(task.id, {
        from: ['queued'],
        to: 'failed',
        error: { code: 'server_restarted', message: 'x' },
        events: [{ type: 'response.failed', withResponse: true }],
      });
      return task.response_id;
    };
    make(false);
    const stored = make(true);
    const now = unixSeconds(clock);
    assert.equal(sweepUnstoredResponses(db, now, journal, 300), 0, 'nothing goes within the grace period');
    assert.equal(sweepUnstoredResponses(db, now + 301, journal, 300), 1);
    assert.deepEqual(
      db
        .prepare<[], { id: string }>('SELECT id FROM responses')
        .all()
        .map((r) => r.id),
      [stored],
    );
    assert.equal(db.prepare<[], { n: number }>('SELECT COUNT(*) AS n FROM tasks').get()?.n, 1, 'its task and events went with it');
  } finally {
    close();
  }
});
