// The queue of waiting tasks: round-robin across clients, first-in first-out within one, and a
// client arriving behind another's burst served next.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FairQueue } from '../../src/tasks/fair-queue.js';

function drain(q: FairQueue): string[] {
  const out: string[] = [];
  for (let id = q.shift(); id !== undefined; id = q.shift()) out.push(id);
  return out;
}

test('clients take turns; each client keeps its own order', () => {
  const q = new FairQueue();
  for (const id of ['a1', 'a2', 'a3']) q.push('a', id);
  for (const id of ['b1', 'b2']) q.push('b', id);
  q.push('c', 'c1');
  assert.equal(q.size, 6);
  assert.deepEqual(drain(q), ['a1', 'b1', 'c1', 'a2', 'b2', 'a3']);
});

test('a client arriving behind a burst goes next, not after one more of the burst', () => {
  const q = new FairQueue();
  for (let i = 1; i <= 10; i++) q.push('flood', `f${i}`);
  assert.equal(q.shift(), 'f1'); // running
  q.push('gui', 'g1');
  assert.equal(q.shift(), 'g1');
  assert.equal(q.shift(), 'f2');
  q.push('gui', 'g2');
  assert.equal(q.shift(), 'g2', 'served one of the flood since, so the gui is next again');
});

test('remove takes a task out wherever it waits; a recovered task can go to the front', () => {
  const q = new FairQueue();
  q.push('a', 'a1');
  q.push('a', 'a2');
  q.push('b', 'b1');
  assert.equal(q.remove('a1'), true);
  assert.equal(q.remove('a1'), false);
  assert.equal(q.has('a2'), true);
  q.push('a', 'a0', true);
  assert.deepEqual(drain(q), ['a0', 'b1', 'a2']);
});
