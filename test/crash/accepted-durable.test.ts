// LMSP §11.2: "It MUST persist the task before it returns 202 Accepted." After one warm-up
// create, nineteen more are in flight when the first of their 202s reaches the client, and the
// process is SIGKILLed in that very tick.
// Every 202 the client got (then or from its socket buffer afterwards) must name a task that the
// store holds, with `response.created` as event 1, and that the restarted service still serves.
// Each create carries an Idempotency-Key, so the client can then retry all twenty: each must end
// up with exactly one task, the one it was first answered with if it was answered at all.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { num, str } from '../harness/api.js';
import type { ServiceProcess } from '../harness/service-process.js';
import { eventLog, killAllServices, prepareCrashDataDir, readCrashedStore, startService, taskStates, taskStatus } from './crash-kit.js';

after(killAllServices);

const IN_FLIGHT = 20;
const ROUNDS = 3;
const BODY = JSON.stringify({ model: 'tiny', input: 'hello', background: true, on_restart: 'fail', max_output_tokens: 16 });

interface Answer {
  key: string;
  status: number;
  taskId: string;
  replayed: boolean;
  /** Whether it arrived before the kill was sent, or was read from the socket afterwards. */
  beforeKill: boolean;
}

function create(service: ServiceProcess, token: string, key: string): Promise<Response> {
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'idempotency-key': key };
  return fetch(`${service.url}/v1/responses`, { method: 'POST', headers, body: BODY });
}

function toAnswer(key: string, res: Response, beforeKill: boolean): Answer {
  // The Location header comes with the status line: the id is known even if the body never does.
  const location = res.headers.get('location') ?? '';
  assert.match(location, /^\/v1\/tasks\/task_\w+$/, `Location of the answer for ${key}`);
  return { key, status: res.status, taskId: location.slice('/v1/tasks/'.length), replayed: res.headers.get('idempotent-replayed') === 'true', beforeKill };
}

async function crashOnFirst202(round: number): Promise<{ dataDir: string; adminToken: string; keys: string[]; accepted: Answer[]; lost: number }> {
  const { dataDir, adminToken } = await prepareCrashDataDir();
  const service = await startService(dataDir, adminToken);
  const keys = Array.from({ length: IN_FLIGHT }, (_, i) => `crash-${round}-${i}`);
  let killed = false;
  try {
    // A first create, answered before the batch: the service is warm (and its first task is
    // starting the model), so the batch's answers follow each other closely.
    const [warmKey = '', ...batch] = keys;
    const warm = toAnswer(warmKey, await create(service, adminToken, warmKey), true);
    assert.equal(warm.status, 202);
    const results = await Promise.allSettled(
      batch.map(async (key) => {
        const res = await create(service, adminToken, key);
        const beforeKill = !killed;
        if (res.status === 202 && !killed) {
          killed = true;
          void service.kill(); // sends SIGKILL synchronously, in this tick
        }
        return { key, res, beforeKill };
      }),
    );
    const came = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
    assert.deepEqual(
      came.filter((c) => c.res.status !== 202).map((c) => c.res.status),
      [],
      'every answer that came was a 202',
    );
    const accepted = [warm, ...came.map((c) => toAnswer(c.key, c.res, c.beforeKill))];
    return { dataDir, adminToken, keys, accepted, lost: results.length - came.length };
  } finally {
    await service.kill();
  }
}

test('every 202 the client received names a task that survived SIGKILL; key retries run nothing twice', { timeout: 120_000 }, async (t) => {
  let lostTotal = 0;
  for (let round = 0; round < ROUNDS; round++) {
    const { dataDir, adminToken, keys, accepted, lost } = await crashOnFirst202(round);
    lostTotal += lost;
    assert.ok(accepted.length >= 2, 'a 202 of the batch arrived and triggered the kill');
    const found = readCrashedStore(dataDir);
    t.diagnostic(
      `round ${round}: ${accepted.length - 1} 202s of the batch received (${accepted.filter((a) => !a.beforeKill).length} after the kill), ${lost} requests died, ${found.size} tasks in the store`,
    );
    for (const { taskId } of accepted) {
      const task = found.get(taskId);
      assert.ok(task, `task ${taskId} was answered 202 but is not in the store`);
      assert.equal(task.events[0]?.type, 'response.created', `event 1 of ${taskId}`);
      assert.equal(task.on_restart, 'fail');
    }

    const service = await startService(dataDir, adminToken);
    try {
      for (const { taskId } of accepted) {
        const res = await service.api.get(`/v1/tasks/${taskId}`);
        assert.equal(res.status, 200, `GET ${taskId} after restart: ${res.text}`);
        const events = await eventLog(service.api, taskId);
        assert.equal(events[0]?.type, 'response.created', `${taskId}: event 1 after restart`);
        assert.equal(events[0]?.sequence_number, 1);
        assert.equal(str(events[0]?.data, 'response', 'task_id'), taskId);
        assert.equal(num(res.body, 'last_sequence_number'), events.length);
        // on_restart "fail": found queued or loading, the restart failed it.
        const status = await taskStatus(service.api, taskId);
        assert.equal(status.status, 'failed', `${taskId} after restart`);
        assert.equal(status.error_code, 'server_restarted');
      }

      // The client retries every request with its key, as it would after losing the connection.
      const retries = await Promise.all(keys.map(async (key) => toAnswer(key, await create(service, adminToken, key), true)));
      assert.deepEqual(
        retries.filter((r) => r.status !== 202).map((r) => r.key),
        [],
        'every retry is answered 202',
      );
      for (const a of accepted) {
        const again = retries.find((r) => r.key === a.key);
        assert.equal(again?.taskId, a.taskId, `retry of ${a.key} names the task it was first answered with`);
        assert.equal(again?.replayed, true, `retry of ${a.key} is a replay`);
      }
      // A task committed before the kill (answered or not) is replayed, never created again.
      const replayedIds = new Set(retries.filter((r) => r.replayed).map((r) => r.taskId));
      for (const id of found.keys()) assert.ok(replayedIds.has(id), `committed task ${id} is what its key replays`);
      assert.equal(new Set(retries.map((r) => r.taskId)).size, IN_FLIGHT, 'one task per key');
      assert.equal((await taskStates(service.api)).size, IN_FLIGHT, 'exactly one task per request in the store');
    } finally {
      await service.kill();
    }
  }
  // Without requests cut off by the kill, this test would not be exercising the race at all.
  assert.ok(lostTotal > 0, 'some creates were still in flight when the process died');
});
