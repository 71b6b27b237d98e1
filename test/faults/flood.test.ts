// One client floods the service on loopback (bounded: hundreds of streams and tasks, seconds): the
// excess is refused with 429 rate_limited and Retry-After, every stream shares one heartbeat timer,
// memory stays bounded, /health/live answers, the GUI session still works and a backup succeeds.
// A reader that stops reading is dropped once 1 MiB is buffered for it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, request } from 'node:http';
import { heartbeatsRunning, MAX_BUFFERED_BYTES, openStreams, writeOrDrop } from '../../src/service/flood-limits.js';
import { str, waitFor } from '../harness/api.js';
import { startTestAppliance } from '../harness/appliance.js';
import { makeClient } from '../api/contract.js';

const STREAMS = 200;
const TASKS = 150;

test(`one client: ${STREAMS} streams and ${TASKS} queued tasks; the excess is 429, the service and the GUI carry on`, async (t) => {
  const ta = await startTestAppliance({ settings: { max_streams_per_client: 32, max_queued_tasks_per_client: 40 } });
  t.after(() => ta.close());
  const ctx = ta.appliance.ctx;
  const made = await makeClient(ta.api, ['responses:write', 'tasks:read']);
  const flood = ta.api.withToken(made.token);
  // No task ever starts here (the runner is stopped): every task waits in the queue and every
  // stream on one stays open, the worst case for both limits.
  await ctx.runner.stop();
  const long = await flood.post('/v1/responses', { model: 'tiny', input: 'go on', max_output_tokens: 4000, background: true });
  assert.equal(long.status, 202, long.text);
  const taskId = str(long.body, 'task_id');
  const rssBefore = process.memoryUsage().rss;

  const abort = new AbortController();
  t.after(() => abort.abort());
  const answers = await Promise.all(
    Array.from({ length: STREAMS }, () =>
      fetch(`${ta.appliance.url}/v1/tasks/${taskId}/events`, {
        headers: { authorization: `Bearer ${made.token}`, accept: 'text/event-stream' },
        signal: abort.signal,
      }),
    ),
  );
  const ok = answers.filter((r) => r.status === 200);
  const refused = answers.filter((r) => r.status === 429);
  assert.equal(
    ok.length,
    32,
    `exactly max_streams_per_client streams open: ${JSON.stringify(answers.reduce<Record<number, number>>((m, r) => ({ ...m, [r.status]: (m[r.status] ?? 0) + 1 }), {}))}`,
  );
  assert.equal(refused.length, STREAMS - 32);
  assert.ok(refused.every((r) => Number(r.headers.get('retry-after')) > 0));
  assert.match((await refused[0]?.text()) ?? '', /rate_limited.*max_streams_per_client/);
  assert.equal(openStreams(ctx, made.client_id), 32);
  assert.deepEqual(heartbeatsRunning(), { streams: 32, timers: 1 }, 'one timer for every stream');

  const creates = [];
  for (let i = 0; i < TASKS; i++) creates.push(await flood.post('/v1/responses', { model: 'tiny', input: `n${i}`, max_output_tokens: 1, background: true }));
  const accepted = creates.filter((r) => r.status === 202).length;
  const tooMany = creates.filter((r) => r.status === 429);
  assert.equal(accepted, 39, 'the queue holds max_queued_tasks_per_client (the first task is one of them)');
  assert.equal(tooMany.length, TASKS - 39);
  assert.ok(tooMany.every((r) => /max_queued_tasks_per_client/.test(r.text) && r.headers.get('retry-after') !== null));
  const queued =
    ctx.writer.prepare<[string], { n: number }>("SELECT count(*) AS n FROM tasks WHERE status = 'queued' AND client_id = ?").get(made.client_id)?.n ?? 0;
  assert.equal(queued, 40);

  // The service carries on: health, the GUI session (its own allowance), a backup.
  assert.equal((await fetch(`${ta.appliance.url}/health/live`)).status, 200);
  const session = await fetch(`${ta.appliance.url}/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ code: ctx.login.issue() }),
  });
  const token = str(await session.json(), 'token');
  assert.equal((await fetch(`${ta.appliance.url}/admin/status`, { headers: { 'x-sanad-session': token } })).status, 200);
  const events = await fetch(`${ta.appliance.url}/admin/events`, { headers: { 'x-sanad-session': token }, signal: abort.signal });
  assert.equal(events.status, 200, 'the GUI still gets its live stream');
  const backup = await ctx.backups.run('manual');
  assert.equal(backup.status, 'ok', backup.error ?? '');
  const grew = process.memoryUsage().rss - rssBefore;
  t.diagnostic(`RSS grew ${(grew / 1e6).toFixed(1)} MB under the flood`);
  assert.ok(grew < 200e6, `memory stays bounded (grew ${(grew / 1e6).toFixed(1)} MB)`);

  abort.abort();
  await waitFor(() => openStreams(ctx, made.client_id) === 0, 10_000, 'the streams to be released');
  await waitFor(() => heartbeatsRunning().timers === 0, 10_000, 'the heartbeat timer to stop with the last stream');
});

test('a reader that stops reading is dropped once 1 MiB waits for it, not buffered without bound', async (t) => {
  let dropped: boolean | null = null;
  let buffered = 0;
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    const chunk = `data: ${'x'.repeat(64 * 1024)}\n\n`;
    const push = (): void => {
      for (let i = 0; i < 8; i++) {
        if (!writeOrDrop(res, chunk)) {
          dropped = true;
          return;
        }
        buffered = Math.max(buffered, res.writableLength);
      }
      if (buffered > 64 * MAX_BUFFERED_BYTES) {
        dropped = false;
        return;
      }
      setTimeout(push, 5);
    };
    push();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  t.after(() => server.close());
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  // A client that reads the headers, then never reads again.
  const req = request({ host: '127.0.0.1', port, path: '/' }, (res) => res.pause());
  req.on('error', () => undefined);
  req.end();
  await waitFor(() => dropped !== null, 20_000, 'the writer to give up or overflow');
  assert.equal(dropped, true, 'dropped');
  assert.ok(buffered <= MAX_BUFFERED_BYTES + 70 * 1024, `at most ~1 MiB buffered (${buffered})`);
  req.destroy();
});
