// Group commit of new tasks: creates that arrive together share one transaction, each settles only
// after that commit, and one that fails rolls back alone.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { systemClock } from '../../src/clock.js';
import { openStore } from '../../src/store/open.js';
import { CreateBatcher } from '../../src/tasks/create-batcher.js';
import { EventHub } from '../../src/tasks/event-hub.js';
import { TaskLedger, type NewTask } from '../../src/tasks/ledger.js';
import { tempDir } from '../harness/data-dir.js';
import { storePath } from '../../src/files/data-dir-layout.js';

const input: NewTask = {
  clientId: null,
  model: 'tiny',
  request: { input: 'hi', instructions: null, max_output_tokens: 4, temperature: null, top_p: null },
  metadata: null,
  background: true,
  store: true,
  onRestart: 'fail',
};

test('concurrent creates share one commit, settle after it, and a failing one rolls back alone', async () => {
  const path = storePath(tempDir());
  const db = openStore(path);
  const ledger = new TaskLedger(db, systemClock, new EventHub());
  const batcher = new CreateBatcher(ledger);
  // A second connection sees only committed data: it proves "settled" means "committed".
  const reader = openStore(path, { readonly: true });
  const committed = (id: string): boolean => reader.prepare<[string], { n: number }>('SELECT COUNT(*) AS n FROM tasks WHERE id = ?').get(id)?.n === 1;
  const count = (): number => reader.prepare<[], { n: number }>('SELECT COUNT(*) AS n FROM tasks').get()?.n ?? -1;
  try {
    let seenByOthersDuringLast = -1;
    const pending = [
      batcher.create(input),
      batcher.create(input, () => {
        throw new Error('the callback of this create fails');
      }),
      batcher.create(input),
      batcher.create(input, () => (seenByOthersDuringLast = count())),
    ];
    assert.equal(count(), 0, 'nothing is written until the batch commits');
    const settled = await Promise.allSettled(pending);
    assert.equal(settled.map((s) => s.status).join(','), 'fulfilled,rejected,fulfilled,fulfilled');
    const created = settled.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
    for (const c of created) assert.ok(committed(c.task.id), `${c.task.id} is visible to another connection once settled`);
    assert.equal(db.prepare<[], { n: number }>('SELECT COUNT(*) AS n FROM tasks').get()?.n, 3, 'the failed create left no task');
    assert.equal(db.prepare<[], { n: number }>('SELECT COUNT(*) AS n FROM responses').get()?.n, 3, 'nor a response');
    assert.equal(db.prepare<[], { n: number }>('SELECT COUNT(*) AS n FROM task_events').get()?.n, 3, 'nor an event');
    const rejected = settled[1];
    assert.ok(rejected?.status === 'rejected' && String(rejected.reason).includes('the callback of this create fails'));
    // While the last create ran, the earlier ones were not yet visible to another connection:
    // all four are in one transaction (separate commits would have shown two tasks here).
    assert.equal(seenByOthersDuringLast, 0);
  } finally {
    reader.close();
    db.close();
  }
});

test('creates on separate turns of the event loop are separate commits', async () => {
  const db = openStore(':memory:');
  const ledger = new TaskLedger(db, systemClock, new EventHub());
  const batcher = new CreateBatcher(ledger);
  try {
    const a = await batcher.create(input);
    const b = await batcher.create(input);
    assert.notEqual(a.task.id, b.task.id);
    assert.ok(a.task.id < b.task.id, 'ids keep creation order');
  } finally {
    db.close();
  }
});
