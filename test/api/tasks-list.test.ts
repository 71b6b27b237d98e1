// GET /v1/tasks: newest first, cursor paging with `after`/`limit`/`has_more`, a `status` filter,
// and a responses:write client sees only its own tasks.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { field, num, str, type Api } from '../harness/api.js';
import { startTestAppliance } from '../harness/appliance.js';
import { assertError, makeClient, startLongTask, waitForStatus } from './contract.js';

const TASK_KEYS = ['created_at', 'error', 'id', 'last_sequence_number', 'model', 'object', 'on_restart', 'response_id', 'status', 'updated_at'];

async function page(api: Api, query: string): Promise<{ ids: string[]; hasMore: boolean; body: unknown }> {
  const res = await api.get(`/v1/tasks${query}`);
  assert.equal(res.status, 200, res.text);
  assert.equal(str(res.body, 'object'), 'list');
  const data = field(res.body, 'data');
  assert.ok(Array.isArray(data));
  const items: unknown[] = data;
  const hasMore = field(res.body, 'has_more');
  assert.equal(typeof hasMore, 'boolean');
  return { ids: items.map((x) => str(x, 'id')), hasMore: hasMore === true, body: res.body };
}

async function allPages(api: Api, query: string, limit: number): Promise<string[][]> {
  const pages: string[][] = [];
  let after = '';
  for (;;) {
    const p = await page(api, `?limit=${limit}${query}${after ? `&after=${after}` : ''}`);
    pages.push(p.ids);
    if (!p.hasMore) return pages;
    after = p.ids.at(-1) ?? '';
    assert.ok(pages.length < 20, 'paging ends');
  }
}

async function background(api: Api): Promise<string> {
  const res = await api.post('/v1/responses', { model: 'tiny', input: 'hi', max_output_tokens: 2, background: true });
  assert.equal(res.status, 202, res.text);
  return str(res.body, 'task_id');
}

test('tasks list newest first, page by cursor, and filter by status', async (t) => {
  // One generation at a time, so the two after the long task wait in the queue.
  const ta = await startTestAppliance({ settings: { max_concurrent_generations: 1 } });
  t.after(() => ta.close());
  const db = ta.appliance.ctx.writer;
  const completed: string[] = [];
  for (let i = 0; i < 3; i++) completed.push(await background(ta.api));
  for (const id of completed) await waitForStatus(db, id, ['completed']);
  const long = await startLongTask(ta.api);
  await waitForStatus(db, long.taskId, ['running']);
  const queued = [await background(ta.api), await background(ta.api)];
  for (const id of queued) {
    const res = await ta.api.post(`/v1/tasks/${id}/cancel`);
    assert.equal(res.status, 200, res.text);
    assert.equal(str(res.body, 'status'), 'cancelled');
  }
  assert.equal((await ta.api.post(`/v1/tasks/${long.taskId}/cancel`)).status, 202);
  await waitForStatus(db, long.taskId, ['cancelled']);
  const cancelled = [long.taskId, ...queued];
  const newestFirst = [...completed, ...cancelled].reverse();

  const everything = await page(ta.api, '');
  assert.deepEqual(everything.ids, newestFirst);
  assert.equal(everything.hasMore, false);
  assert.equal(field(everything.body, 'first_id'), newestFirst[0]);
  assert.equal(field(everything.body, 'last_id'), newestFirst.at(-1));
  const first: unknown = field(everything.body, 'data', 0);
  // The admin (the GUI) also gets the prompt's preview line; clients get the contract's keys only.
  assert.deepEqual(Object.keys(first ?? {}).sort(), [...TASK_KEYS, 'prompt'].sort());
  assert.equal(str(first, 'prompt'), 'hi');
  assert.equal(str(first, 'object'), 'task');
  assert.equal(str(first, 'status'), 'cancelled');

  assert.deepEqual(await allPages(ta.api, '', 2), [newestFirst.slice(0, 2), newestFirst.slice(2, 4), newestFirst.slice(4, 6)]);
  assert.deepEqual((await allPages(ta.api, '', 4)).flat(), newestFirst, 'a page size that does not divide evenly');
  const exact = await page(ta.api, '?limit=6');
  assert.equal(exact.hasMore, false, 'has_more is false when the page ends exactly at the last task');

  assert.deepEqual((await page(ta.api, '?status=completed')).ids, [...completed].reverse());
  assert.deepEqual((await page(ta.api, '?status=cancelled')).ids, [...cancelled].reverse());
  assert.deepEqual(await allPages(ta.api, '&status=cancelled', 2), [[queued[1], queued[0]], [long.taskId]]);
  assert.deepEqual(await page(ta.api, '?status=running').then((p) => [p.ids, p.hasMore]), [[], false]);
  assert.deepEqual((await page(ta.api, `?after=${completed[0]}`)).ids, [], 'nothing is older than the first task');

  assertError(await ta.api.get('/v1/tasks?status=weird'), 400, 'invalid_request_error', 'status');
  for (const bad of ['0', '101', 'x', '1.5']) assertError(await ta.api.get(`/v1/tasks?limit=${bad}`), 400, 'invalid_request_error', 'limit');
});

test('a responses:write client lists only its own tasks; tasks:read lists all', async (t) => {
  const ta = await startTestAppliance();
  t.after(() => ta.close());
  const db = ta.appliance.ctx.writer;
  const mine = ta.api.withToken((await makeClient(ta.api, ['responses:write'], 'mine')).token);
  const reader = ta.api.withToken((await makeClient(ta.api, ['tasks:read'], 'reader')).token);
  const adminTask = await background(ta.api);
  const ownTask = await background(mine);
  for (const id of [adminTask, ownTask]) await waitForStatus(db, id, ['completed']);
  assert.deepEqual((await page(mine, '')).ids, [ownTask]);
  const read = await page(reader, '');
  assert.deepEqual(read.ids, [ownTask, adminTask]);
  assert.deepEqual(Object.keys(field(read.body, 'data', 0) ?? {}).sort(), TASK_KEYS, 'a client sees no admin additions (no prompt)');
  assert.deepEqual((await page(ta.api, '?status=completed')).ids, [ownTask, adminTask]);
  // One task for the admin: the whole prompt, the tokens generated, when generation began.
  const one = (await ta.api.get(`/v1/tasks/${adminTask}`)).body;
  assert.equal(str(one, 'prompt'), 'hi');
  assert.equal(field(one, 'output_tokens'), 2);
  const began = field(one, 'generation_started_at');
  assert.ok(
    typeof began === 'number' && began >= num(one, 'created_at') && began <= num(one, 'updated_at'),
    `generation began within the task's life (${String(began)})`,
  );
  assert.equal(field((await reader.get(`/v1/tasks/${adminTask}`)).body, 'prompt'), undefined, 'a client gets no prompt');
});
