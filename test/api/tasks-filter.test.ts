// GET /v1/tasks with 100,000 tasks (the GUI's Tasks screen): the status and model filters, alone
// and together, return exactly the matching tasks newest first across cursor pages; each page is
// an index walk (EXPLAIN QUERY PLAN of the very statement the route runs names the index, with no
// table scan and no sort); and malformed filters are refused naming the parameter.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { performance } from 'node:perf_hooks';
import { newId } from '../../src/ids.js';
import type { Db } from '../../src/store/open.js';
import { taskListStatement, type TaskListQuery } from '../../src/tasks/queries.js';
import type { TaskStatus } from '../../src/tasks/types.js';
import { field, str, type Api } from '../harness/api.js';
import { startTestAppliance } from '../harness/appliance.js';
import { assertError } from './contract.js';

const N = 100_000;
const STATUSES: readonly TaskStatus[] = ['completed', 'failed', 'cancelled'];

interface Seeded {
  id: string;
  model: string;
  status: TaskStatus;
}

/** One transaction of N terminal tasks (terminal: the runner never picks them up). */
function seed(db: Db): Seeded[] {
  const rows: Seeded[] = [];
  const now = Math.floor(Date.now() / 1000);
  const response = db.prepare(
    `INSERT INTO responses(id, client_id, model, item_id, request, metadata, background, store, created_at)
     VALUES (?, NULL, ?, ?, '{}', NULL, 1, 1, ?)`,
  );
  const task = db.prepare(
    `INSERT INTO tasks(id, response_id, client_id, model, status, on_restart, last_sequence_number, created_at, updated_at)
     VALUES (?, ?, NULL, ?, ?, 'fail', 0, ?, ?)`,
  );
  db.transaction(() => {
    for (let i = 0; i < N; i++) {
      // 1 % "rare" (the case where a scan would be slowest), the rest split between two models.
      const model = i % 100 === 7 ? 'rare' : i % 2 === 0 ? 'alpha' : 'beta';
      const status = STATUSES[i % 3] ?? 'completed';
      const id = newId('task');
      const respId = newId('resp');
      response.run(respId, model, newId('msg'), now);
      task.run(id, respId, model, status, now, now);
      rows.push({ id, model, status });
    }
  })();
  return rows;
}

interface Page {
  ids: string[];
  hasMore: boolean;
  ms: number;
}

async function fetchPage(api: Api, query: string): Promise<Page> {
  const started = performance.now();
  const res = await api.get(`/v1/tasks?limit=50${query}`);
  const ms = performance.now() - started;
  assert.equal(res.status, 200, res.text);
  const data = field(res.body, 'data');
  assert.ok(Array.isArray(data));
  const items: unknown[] = data;
  return { ids: items.map((x) => str(x, 'id')), hasMore: field(res.body, 'has_more') === true, ms };
}

/** Every page of a filter, following the cursor, with the slowest page's time. */
async function walk(api: Api, filter: string): Promise<{ ids: string[]; pages: number; times: number[] }> {
  const ids: string[] = [];
  const times: number[] = [];
  for (;;) {
    const p = await fetchPage(api, `${filter}${ids.length ? `&after=${ids.at(-1) ?? ''}` : ''}`);
    times.push(p.ms);
    ids.push(...p.ids);
    if (!p.hasMore) return { ids, pages: times.length, times };
    assert.equal(p.ids.length, 50, 'a page that says there is more is full');
  }
}

const newestFirst = (rows: Seeded[], keep: (r: Seeded) => boolean): string[] =>
  rows
    .filter(keep)
    .map((r) => r.id)
    .reverse();

test('100,000 tasks: status and model filters page by cursor, newest first, exactly the matching tasks', async (t) => {
  const ta = await startTestAppliance();
  t.after(() => ta.close());
  const db = ta.appliance.ctx.writer;
  const seedStart = performance.now();
  const rows = seed(db);
  const seedMs = performance.now() - seedStart;

  const both = await walk(ta.api, '&model=rare&status=failed');
  assert.deepEqual(
    both.ids,
    newestFirst(rows, (r) => r.model === 'rare' && r.status === 'failed'),
  );
  assert.ok(both.ids.length > 300, `enough rows to page (${both.ids.length})`);

  const rare = await walk(ta.api, '&model=rare');
  assert.deepEqual(
    rare.ids,
    newestFirst(rows, (r) => r.model === 'rare'),
  );
  assert.equal(rare.pages, 20);

  // A status page deep in the list: the cursor of row 30,000 of the filter gives the next 50.
  const cancelled = newestFirst(rows, (r) => r.status === 'cancelled');
  const first = await fetchPage(ta.api, '&status=cancelled');
  assert.deepEqual(first.ids, cancelled.slice(0, 50));
  assert.equal(first.hasMore, true);
  const deep = await fetchPage(ta.api, `&status=cancelled&after=${cancelled[29_999] ?? ''}`);
  assert.deepEqual(deep.ids, cancelled.slice(30_000, 30_050));
  const beta = await fetchPage(ta.api, `&model=beta&status=completed&after=${rows[50_000]?.id ?? ''}`);
  assert.deepEqual(beta.ids, newestFirst(rows.slice(0, 50_000), (r) => r.model === 'beta' && r.status === 'completed').slice(0, 50));
  const all = await fetchPage(ta.api, '');
  assert.deepEqual(all.ids, newestFirst(rows, () => true).slice(0, 50));
  const empty = await fetchPage(ta.api, '&model=nobody');
  assert.deepEqual([empty.ids, empty.hasMore], [[], false]);

  const times = [...both.times, ...rare.times, first.ms, deep.ms, beta.ms, all.ms, empty.ms].sort((a, b) => a - b);
  const slowest = times.at(-1) ?? 0;
  const median = times[Math.floor(times.length / 2)] ?? 0;
  t.diagnostic(
    `seeded ${N} tasks in ${Math.round(seedMs)} ms; ${times.length} pages of 50 over HTTP: median ${median.toFixed(1)} ms, slowest ${slowest.toFixed(1)} ms`,
  );
  // The median page over HTTP (a bound loose enough for a shared 2-core machine running Chromium
  // beside it); the plan check below is what rules out a scan for certain.
  assert.ok(median < 250, `median page ${median} ms`);
});

test('every filter combination of the task list walks an index in id order (EXPLAIN QUERY PLAN)', async (t) => {
  const ta = await startTestAppliance();
  t.after(() => ta.close());
  const db = ta.appliance.ctx.writer;
  const cases: Array<[Omit<TaskListQuery, 'limit'>, string]> = [
    [{}, 'sqlite_autoindex_tasks_1'],
    [{ status: 'failed' }, 'tasks_status'],
    [{ model: 'rare' }, 'tasks_model'],
    [{ status: 'failed', model: 'rare' }, 'tasks_status_model'],
  ];
  for (const [filter, index] of cases) {
    for (const after of [undefined, 'task_0000000000zzzzzzzzzzzzzzzz']) {
      const { sql, params } = taskListStatement({ ...filter, ...(after ? { after } : {}), limit: 50 });
      const plan = db
        .prepare<Array<string | number>, { detail: string }>(`EXPLAIN QUERY PLAN ${sql}`)
        .all(...params)
        .map((r) => r.detail);
      const what = `${JSON.stringify({ ...filter, after })}: ${plan.join(' | ')}`;
      assert.ok(
        plan.some((d) => d.includes(`USING INDEX ${index} `) || d.endsWith(`USING INDEX ${index}`) || d.includes(`USING COVERING INDEX ${index}`)),
        what,
      );
      assert.ok(!plan.some((d) => /TEMP B-TREE/.test(d)), `no sort: ${what}`);
      assert.ok(!plan.some((d) => /^SCAN tasks$/.test(d)), `no table scan: ${what}`);
      if (Object.keys(filter).length > 0)
        assert.ok(
          plan.some((d) => d.startsWith('SEARCH tasks')),
          `a search, not a scan: ${what}`,
        );
    }
  }
});

test('malformed task-list filters are refused naming the parameter', async (t) => {
  const ta = await startTestAppliance();
  t.after(() => ta.close());
  assertError(await ta.api.get('/v1/tasks?model=not%20a%20model!'), 400, 'invalid_request_error', 'model');
  assertError(await ta.api.get(`/v1/tasks?model=${'m'.repeat(129)}`), 400, 'invalid_request_error', 'model');
  assertError(await ta.api.get('/v1/tasks?after=resp_123'), 400, 'invalid_request_error', 'after');
  assertError(await ta.api.get('/v1/tasks?status=done'), 400, 'invalid_request_error', 'status');
  assert.equal((await ta.api.get('/v1/tasks?model=&after=')).status, 200, 'empty filters mean no filter');
});
