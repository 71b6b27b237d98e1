// LMSP §11.2: once a cancel is accepted the task can never end `completed`, a crash included.
// Cancels are accepted (202) while generating and while loading, the process is SIGKILLed in the
// tick the 202 arrives, and through two restarts every such task ends, and stays, `cancelled`.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import type { OnRestart } from '../../src/tasks/types.js';
import { str } from '../harness/api.js';
import type { ServiceProcess } from '../harness/service-process.js';
import {
  assertFinishedLog,
  cancelThenKill,
  createBackground,
  eventLog,
  killAllServices,
  prepareCrashDataDir,
  readCrashedStore,
  startService,
  taskStatus,
  waitAllTerminal,
  waitGenerating,
} from './crash-kit.js';

after(killAllServices);

const POLICIES: readonly OnRestart[] = ['fail', 'retry', 'resume'];

/** A task's log length at a crash, and whether the restart still owes it its cancelled event. */
interface Seen {
  length: number;
  cancelling: boolean;
}

/** After a crash: every cancelled task is in the store as cancelling or cancelled, never further. */
function checkFoundCancelled(dataDir: string, taskIds: readonly string[], note: (msg: string) => void): Map<string, Seen> {
  const found = readCrashedStore(dataDir);
  const seen = new Map<string, Seen>();
  for (const id of taskIds) {
    const f = found.get(id);
    assert.ok(f, `${id} is in the store`);
    assert.ok(f.status === 'cancelling' || f.status === 'cancelled', `${id} found ${f.status}`);
    assert.ok(
      f.events.some((e) => e.type === 'response.cancelling'),
      `${id}: the accepted cancel is stored`,
    );
    assert.ok(!f.events.some((e) => e.type === 'response.completed' || e.type === 'response.output_text.done'), `${id} never completed`);
    seen.set(id, { length: f.last_sequence_number, cancelling: f.status === 'cancelling' });
    note(`${id} found ${f.status}`);
  }
  return seen;
}

/** After a restart: cancelled, one terminal event (response.cancelled), cancel now refused. */
async function checkCancelled(service: ServiceProcess, taskId: string, before: Seen | undefined): Promise<number> {
  assert.ok(before, `${taskId} was seen before the restart`);
  const events = await eventLog(service.api, taskId);
  const task = await taskStatus(service.api, taskId);
  assertFinishedLog(events, task, taskId);
  assert.equal(task.status, 'cancelled', taskId);
  assert.equal(events.at(-1)?.type, 'response.cancelled', taskId);
  assert.ok(!events.some((e) => e.type === 'response.completed' || e.type === 'response.output_text.done'), `${taskId} never completed`);
  // Found cancelling: recovery adds exactly the cancelled event. Found cancelled: nothing at all.
  assert.deepEqual(
    events.slice(before.length).map((e) => e.type),
    before.cancelling ? ['response.cancelled'] : [],
    `${taskId}: events the restart added`,
  );
  const response = await service.api.get(`/v1/responses/${str(events[0]?.data, 'response_id')}`);
  assert.equal(str(response.body, 'status'), 'cancelled');
  const again = await service.api.post(`/v1/tasks/${taskId}/cancel`);
  assert.equal(again.status, 409, again.text);
  return events.length;
}

test('a task whose cancel was accepted ends cancelled across SIGKILL, never completed', { timeout: 120_000 }, async (t) => {
  const note = (msg: string): void => t.diagnostic(msg);
  const { dataDir, adminToken } = await prepareCrashDataDir({ max_concurrent_generations: 3 });

  // 1. Three generations, one per policy; all cancelled at once; killed as the last 202 lands.
  const first = await startService(dataDir, adminToken);
  const generating: string[] = [];
  try {
    for (const policy of POLICIES) generating.push((await createBackground(first.api, policy, 1000)).taskId);
    await waitGenerating(first.api, generating, 20);
    assert.deepEqual(await cancelThenKill(first, adminToken, generating), [202, 202, 202]);
  } finally {
    await first.kill();
  }
  const foundFirst = checkFoundCancelled(dataDir, generating, note);

  // 2. Restart: they are cancelled. A cancel accepted while a fresh process loads, then a kill.
  const second = await startService(dataDir, adminToken);
  const afterRestart = new Map<string, Seen>();
  let loadingId = '';
  try {
    for (const id of generating) afterRestart.set(id, { length: await checkCancelled(second, id, foundFirst.get(id)), cancelling: false });
    loadingId = (await createBackground(second.api, 'resume', 1000)).taskId;
    assert.equal((await taskStatus(second.api, loadingId)).status, 'loading', 'the first task of a fresh process is loading');
    assert.deepEqual(await cancelThenKill(second, adminToken, [loadingId]), [202]);
  } finally {
    await second.kill();
  }
  const foundSecond = checkFoundCancelled(dataDir, [loadingId], note);

  // 3. Restart again: a new task runs to the end, and the cancelled ones never moved.
  const third = await startService(dataDir, adminToken);
  try {
    const { taskId: probe } = await createBackground(third.api, 'fail', 32);
    await waitAllTerminal(third.api, [probe]);
    assert.equal((await taskStatus(third.api, probe)).status, 'completed', 'the runner works after the restarts');
    // Already cancelled before this restart: checkCancelled asserts the restart added nothing.
    for (const id of generating) await checkCancelled(third, id, afterRestart.get(id));
    await checkCancelled(third, loadingId, foundSecond.get(loadingId));
  } finally {
    await third.kill();
  }
});
