// What ends with a credential: signing out ends that GUI session's open /admin/events stream (and
// not another session's); revoking a client cancels what it still has running or waiting (a
// foreground request waiting on its answer ends too). And tasks:write alone cancels any task, as
// the scope promises, without tasks:read.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { str } from '../harness/api.js';
import { startTestAppliance, type TestAppliance } from '../harness/appliance.js';
import { sessionHeader, signInWithLink } from '../harness/gui-session.js';
import { makeClient, startLongTask, taskStatus, waitForStatus } from '../api/contract.js';

let t: TestAppliance | null = null;
after(async () => {
  await t?.close();
});

/** Opens /admin/events with `headers`; resolves with a function telling whether the stream has ended. */
function openEvents(url: string, headers: Record<string, string>): Promise<{ ended: () => boolean; close: () => void }> {
  return new Promise((resolve, reject) => {
    let ended = false;
    const req = request(`${url}/admin/events`, { headers }, (res) => {
      assert.equal(res.statusCode, 200);
      res.on('data', () => undefined);
      res.once('end', () => (ended = true));
      res.once('close', () => (ended = true));
      resolve({ ended: () => ended, close: () => req.destroy() });
    });
    req.once('error', (err) => (ended ? undefined : reject(err)));
    req.end();
  });
}

async function until(check: () => boolean, ms: number): Promise<boolean> {
  const start = performance.now();
  while (!check() && performance.now() - start < ms) await new Promise((r) => setTimeout(r, 50));
  return check();
}

test("sign-out ends that session's event stream at once; another session's goes on", async () => {
  t = await startTestAppliance();
  const url = t.appliance.url;
  const a = await signInWithLink(t.appliance.loginUrl());
  const b = await signInWithLink(t.appliance.loginUrl());
  assert.ok(a.token && b.token);
  const streamA = await openEvents(url, sessionHeader(a.token));
  const streamB = await openEvents(url, sessionHeader(b.token));
  const out = await fetch(`${url}/admin/logout`, { method: 'POST', headers: sessionHeader(a.token) });
  assert.equal(out.status, 204);
  assert.equal(await until(streamA.ended, 3000), true, "the signed-out session's stream ended");
  assert.equal(streamB.ended(), false, 'the other session still streams');
  streamB.close();
});

test('revoking a client cancels its running and queued tasks, and its waiting foreground request ends', async () => {
  if (!t) throw new Error('the first test starts the appliance');
  const client = await makeClient(t.api, ['responses:write']);
  const app = t.api.withToken(client.token);
  const running = await startLongTask(app);
  await waitForStatus(t.appliance.ctx.writer, running.taskId, ['running']);
  const queued = await startLongTask(app);
  const foreground = app.post('/v1/responses', { model: 'tiny', input: 'wait for me', max_output_tokens: 4000 });
  await new Promise((r) => setTimeout(r, 300));
  assert.equal((await t.api.post(`/admin/clients/${client.client_id}/revoke`)).status, 200);
  for (const id of [running.taskId, queued.taskId]) {
    assert.match(await waitForStatus(t.appliance.ctx.writer, id, ['cancelled'], 10_000), /cancelled/);
  }
  const answer = await foreground;
  assert.equal(answer.status, 200, answer.text);
  assert.equal(str(answer.body, 'status'), 'cancelled', 'the foreground request ended with its cancelled task');
  assert.equal((await app.get('/v1/models')).status, 401);
});

test("tasks:write alone cancels another client's task without reading it first", async () => {
  if (!t) throw new Error('the first test starts the appliance');
  const owner = await makeClient(t.api, ['responses:write']);
  const canceller = t.api.withToken((await makeClient(t.api, ['tasks:write'])).token);
  const { responseId, taskId } = await startLongTask(t.api.withToken(owner.token));
  await waitForStatus(t.appliance.ctx.writer, taskId, ['running']);
  assert.notEqual((await canceller.get(`/v1/tasks/${taskId}`)).status, 200, 'it may not read the task');
  const cancelled = await canceller.post(`/v1/tasks/${taskId}/cancel`);
  assert.ok([200, 202].includes(cancelled.status), cancelled.text);
  assert.equal(await waitForStatus(t.appliance.ctx.writer, taskId, ['cancelled'], 10_000), 'cancelled');
  const second = await startLongTask(t.api.withToken(owner.token));
  const byResponse = await canceller.post(`/v1/responses/${second.responseId}/cancel`);
  assert.ok([200, 202].includes(byResponse.status), byResponse.text);
  assert.equal(await waitForStatus(t.appliance.ctx.writer, second.taskId, ['cancelled'], 10_000), 'cancelled');
  assert.equal(taskStatus(t.appliance.ctx.writer, taskId), 'cancelled');
  assert.ok(responseId.startsWith('resp_'));
  assert.equal(str((await t.api.get(`/v1/tasks/${taskId}`)).body, 'status'), 'cancelled');
});
