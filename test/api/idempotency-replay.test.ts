// Idempotency replays: the same key and request give back the stored answer and run nothing
// again; a different request under the key, or one still running, is a 409.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Db } from '../../src/store/open.js';
import { str, waitFor } from '../harness/api.js';
import { startTestAppliance } from '../harness/appliance.js';
import { readSse } from '../harness/sse.js';
import { assertError, countRows, waitForStatus } from './contract.js';

const KEY = 'idempotency-key';

function keyRow(db: Db, key: string): { state: string; status_code: number | null; body: string | null } | undefined {
  return db
    .prepare<[string], { state: string; status_code: number | null; body: string | null }>(
      'SELECT state, status_code, body FROM idempotency_keys WHERE key = ?',
    )
    .get(key);
}

test('same key and same body: the same status and body, marked replayed, and nothing runs twice', async (t) => {
  const ta = await startTestAppliance();
  t.after(() => ta.close());
  const db = ta.appliance.ctx.writer;
  const first = await ta.api.post('/v1/responses', { model: 'tiny', input: 'hi', max_output_tokens: 4 }, { [KEY]: 'k-1' });
  assert.equal(first.status, 200, first.text);
  assert.equal(first.headers.get('idempotent-replayed'), null);
  assert.deepEqual(keyRow(db, 'k-1'), { state: 'done', status_code: 200, body: first.text });

  const again = await ta.api.post('/v1/responses', { model: 'tiny', input: 'hi', max_output_tokens: 4 }, { [KEY]: 'k-1' });
  assert.equal(again.status, 200);
  assert.equal(again.headers.get('idempotent-replayed'), 'true');
  assert.equal(again.text, first.text);
  // The fingerprint is over canonical JSON: key order does not make a new request.
  const reordered = await ta.api.post('/v1/responses', { max_output_tokens: 4, input: 'hi', model: 'tiny' }, { [KEY]: 'k-1' });
  assert.equal(reordered.headers.get('idempotent-replayed'), 'true');
  assert.equal(reordered.text, first.text);
  assert.equal(countRows(db, 'tasks'), 1, 'one generation for three requests');
  assert.equal(countRows(db, 'responses'), 1);
});

test('same key with a different body or path: 409 idempotency_key_reused, nothing runs', async (t) => {
  const ta = await startTestAppliance();
  t.after(() => ta.close());
  const db = ta.appliance.ctx.writer;
  const first = await ta.api.post('/v1/responses', { model: 'tiny', input: 'hi', max_output_tokens: 4 }, { [KEY]: 'k-2' });
  assert.equal(first.status, 200, first.text);
  const id = str(first.body, 'id');
  assertError(await ta.api.post('/v1/responses', { model: 'tiny', input: 'bye', max_output_tokens: 4 }, { [KEY]: 'k-2' }), 409, 'idempotency_key_reused');
  assertError(await ta.api.post('/v1/responses', { model: 'tiny', input: 'hi', max_output_tokens: 5 }, { [KEY]: 'k-2' }), 409, 'idempotency_key_reused');
  assertError(await ta.api.post(`/v1/responses/${id}/cancel`, undefined, { [KEY]: 'k-2' }), 409, 'idempotency_key_reused');
  assert.equal(countRows(db, 'tasks'), 1);
  assert.deepEqual(keyRow(db, 'k-2'), { state: 'done', status_code: 200, body: first.text }, 'the stored answer is untouched');
});

test('a key still in progress: 409 idempotency_key_in_progress, then the finished answer replays', async (t) => {
  const ta = await startTestAppliance();
  t.after(() => ta.close());
  const db = ta.appliance.ctx.writer;
  const body = { model: 'tiny', input: 'a long one', max_output_tokens: 4000 };
  const slow = ta.api.post('/v1/responses', body, { [KEY]: 'k-3' });
  const taskId = await waitFor(() => db.prepare<[], { id: string }>('SELECT id FROM tasks').get()?.id, 20_000, 'the task row');
  await waitForStatus(db, taskId, ['running']);
  assert.equal(keyRow(db, 'k-3')?.state, 'in_progress');

  assertError(await ta.api.post('/v1/responses', body, { [KEY]: 'k-3' }), 409, 'idempotency_key_in_progress', 'Idempotency-Key');
  assertError(await ta.api.post('/v1/responses', { ...body, input: 'other' }, { [KEY]: 'k-3' }), 409, 'idempotency_key_reused');
  assert.equal(countRows(db, 'tasks'), 1, 'the conflicting requests started nothing');

  const cancel = await ta.api.post(`/v1/tasks/${taskId}/cancel`);
  assert.ok([200, 202].includes(cancel.status), cancel.text);
  const first = await slow;
  assert.equal(first.status, 200, first.text);
  assert.equal(str(first.body, 'status'), 'cancelled');
  assert.equal(keyRow(db, 'k-3')?.state, 'done');

  const replay = await ta.api.post('/v1/responses', body, { [KEY]: 'k-3' });
  assert.equal(replay.status, 200);
  assert.equal(replay.headers.get('idempotent-replayed'), 'true');
  assert.equal(replay.text, first.text);
  assert.equal(countRows(db, 'tasks'), 1);
});

test('a background create replays 202 with the same Location and body', async (t) => {
  const ta = await startTestAppliance();
  t.after(() => ta.close());
  const db = ta.appliance.ctx.writer;
  const body = { model: 'tiny', input: 'hi', max_output_tokens: 4, background: true };
  const first = await ta.api.post('/v1/responses', body, { [KEY]: 'k-4' });
  assert.equal(first.status, 202, first.text);
  const location = first.headers.get('location');
  assert.equal(location, `/v1/tasks/${str(first.body, 'task_id')}`);
  // The stored answer was committed with the task itself (before the 202 was written).
  assert.deepEqual(keyRow(db, 'k-4'), { state: 'done', status_code: 202, body: first.text });

  const replay = await ta.api.post('/v1/responses', body, { [KEY]: 'k-4' });
  assert.equal(replay.status, 202);
  assert.equal(replay.headers.get('location'), location);
  assert.equal(replay.headers.get('idempotent-replayed'), 'true');
  assert.equal(replay.text, first.text);
  assert.equal(countRows(db, 'tasks'), 1);
  await waitForStatus(db, str(first.body, 'task_id'), ['completed']);
});

test('a streamed create replays the same task as a stream, without running it again', async (t) => {
  const ta = await startTestAppliance();
  t.after(() => ta.close());
  const db = ta.appliance.ctx.writer;
  const init = {
    method: 'POST',
    headers: { authorization: `Bearer ${ta.adminToken}`, 'content-type': 'application/json', [KEY]: 'k-5' },
    body: JSON.stringify({ model: 'tiny', input: 'hi', max_output_tokens: 4, stream: true }),
  };
  const first = await readSse(`${ta.appliance.url}/v1/responses`, init);
  const replay = await readSse(`${ta.appliance.url}/v1/responses`, init);
  assert.equal(first.status, 200);
  assert.equal(replay.status, 200);
  assert.match(replay.contentType ?? '', /^text\/event-stream/);
  const ids = (frames: typeof first.frames): string[] => frames.map((f) => `${f.id ?? ''} ${f.event ?? ''}`);
  // Cut short at 4 tokens: OpenAI's clients see response.incomplete.
  assert.equal(first.frames.at(-1)?.event, 'response.incomplete');
  assert.deepEqual(ids(replay.frames), ids(first.frames), 'the replay is the same event log');
  assert.equal(countRows(db, 'tasks'), 1);
});

test('a foreground request whose client hung up is cancelled, and its key lets the retry run anew', async (t) => {
  const ta = await startTestAppliance();
  t.after(() => ta.close());
  const db = ta.appliance.ctx.writer;
  const body = { model: 'tiny', input: 'a long one', max_output_tokens: 4000 };
  for (const stream of [false, true]) {
    const key = `gone-${stream}`;
    const leaving = new AbortController();
    const first = fetch(`${ta.appliance.url}/v1/responses`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ta.adminToken}`, 'content-type': 'application/json', [KEY]: key },
      body: JSON.stringify({ ...body, stream }),
      signal: leaving.signal,
    }).then(async (res) => res.text());
    const taskId = await waitFor(
      () => db.prepare<[string], { id: string }>('SELECT id FROM tasks WHERE status = ?').get('running')?.id,
      20_000,
      'a running task',
    );
    leaving.abort();
    await first.catch(() => undefined);
    await waitForStatus(db, taskId, ['cancelled']);
    assert.equal(keyRow(db, key), undefined, 'the key was let go with the cancelled answer');
    // The retry runs (a new task), rather than replaying a cancelled fragment.
    const retry = await ta.api.post('/v1/responses', { ...body, max_output_tokens: 4 }, { [KEY]: key });
    assert.equal(retry.status, 200, retry.text);
    assert.equal(retry.headers.get('idempotent-replayed'), null);
  }
});
