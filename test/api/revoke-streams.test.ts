// Revoking a client works at once: its next request is 401 (pairing.test.ts), an event stream it
// holds open is cut, and its task is cancelled instead of running to the end for nobody. Another
// client's stream of the same task is not cut: it follows the task to its cancelled end.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { field } from '../harness/api.js';
import { startTestAppliance } from '../harness/appliance.js';
import { makeClient, startLongTask } from './contract.js';

async function openStream(url: string, token: string): Promise<{ ended: Promise<string>; frames: () => number }> {
  const res = await fetch(url, { headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' } });
  assert.equal(res.status, 200);
  let frames = 0;
  const body = res.body;
  assert.ok(body);
  const reader: ReadableStreamDefaultReader<Uint8Array> = body.getReader();
  const ended = (async (): Promise<string> => {
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return 'ended';
        frames += new TextDecoder().decode(value).split('\n\n').length - 1;
      }
    } catch {
      return 'cut';
    }
  })();
  return { ended, frames: () => frames };
}

test("revoking a client cuts its open event streams and cancels its task; another client's stream follows the task to its end", async (t) => {
  const ta = await startTestAppliance();
  t.after(() => ta.close());
  const device = await makeClient(ta.api, ['responses:write', 'tasks:read'], 'phone');
  const other = await makeClient(ta.api, ['tasks:read'], 'laptop');
  const deviceApi = ta.api.withToken(device.token);
  const { taskId } = await startLongTask(deviceApi, 6000);
  const url = `${ta.appliance.url}/v1/tasks/${taskId}/events`;
  const mine = await openStream(url, device.token);
  const theirs = await openStream(url, other.token);
  await new Promise((r) => setTimeout(r, 300));
  assert.ok(mine.frames() > 0, 'the stream was flowing');
  const revoked = await ta.api.post(`/admin/clients/${device.client_id}/revoke`);
  assert.equal(revoked.status, 200);
  const outcome = await Promise.race([mine.ended, new Promise<string>((r) => setTimeout(() => r('still open'), 3000))]);
  assert.notEqual(outcome, 'still open', "the revoked client's stream ended");
  assert.equal(await theirs.ended, 'ended', "the other client's stream ends cleanly, with the task");
  assert.equal((await deviceApi.get(`/v1/tasks/${taskId}`)).status, 401);
  const task = await ta.api.withToken(other.token).get(`/v1/tasks/${taskId}`);
  assert.equal(field(task.body, 'status'), 'cancelled', "the revoked client's task was cancelled");
});
