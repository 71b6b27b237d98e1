// LMSP §11.3 for real: `sanad serve` is SIGKILLed with tasks in every unfinished state under
// every `on_restart` policy, then started again on the same data dir. The state each task was
// *found* in is read from the store the dead process left, so the test checks the table against
// what really happened, and loops (fresh data dirs) until every one of the 12 cells was hit.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import type { OnRestart } from '../../src/tasks/types.js';
import { str } from '../harness/api.js';
import type { ServiceProcess } from '../harness/service-process.js';
import {
  assertFinishedLog,
  cancelThenKillAtFirst,
  createBackground,
  deltaText,
  eventLog,
  finalText,
  killAllServices,
  prepareCrashDataDir,
  readCrashedStore,
  startService,
  taskStatus,
  waitAllTerminal,
  waitGenerating,
  type FoundTask,
} from './crash-kit.js';

after(killAllServices);

type Found = 'queued' | 'loading' | 'running' | 'cancelling';
type Moved = 'failed' | 'queued' | 'running' | 'cancelled';
const POLICIES: readonly OnRestart[] = ['fail', 'retry', 'resume'];

/** The seed's table, written out again here so the test does not trust src/tasks/recovery.ts. */
const TABLE: Record<Found, Record<OnRestart, Moved>> = {
  queued: { fail: 'failed', retry: 'queued', resume: 'queued' },
  loading: { fail: 'failed', retry: 'queued', resume: 'queued' },
  running: { fail: 'failed', retry: 'queued', resume: 'running' },
  cancelling: { fail: 'cancelled', retry: 'cancelled', resume: 'cancelled' },
};
const EVENT_OF: Record<Moved, string> = {
  failed: 'response.failed',
  queued: 'response.queued',
  running: 'response.in_progress',
  cancelled: 'response.cancelled',
};

const exercised = new Set<string>();
const missing = (states: readonly Found[]): string[] => states.flatMap((s) => POLICIES.map((p) => `${s}/${p}`)).filter((cell) => !exercised.has(cell));

function isFound(status: string): status is Found {
  return status === 'queued' || status === 'loading' || status === 'running' || status === 'cancelling';
}

/** One task after the restart, against the cell it was found in. */
async function checkRecovered(service: ServiceProcess, responseId: string, found: FoundTask & { status: Found }): Promise<void> {
  const { api } = service;
  const what = `${found.id} (found ${found.status}, on_restart ${found.on_restart})`;
  const to = TABLE[found.status][found.on_restart];
  const events = await eventLog(api, found.id);
  const task = await taskStatus(api, found.id);
  assertFinishedLog(events, task, what);
  const n0 = found.last_sequence_number;
  // The history before the crash is kept exactly as the dead process committed it.
  assert.deepEqual(
    events.slice(0, n0).map((e) => `${e.sequence_number} ${e.type}`),
    found.events.map((e) => `${e.sequence_number} ${e.type}`),
    `${what}: history kept`,
  );
  assert.equal(deltaText(events.slice(0, n0)), deltaText(found.events), `${what}: committed text kept`);
  const recovery = events[n0];
  assert.equal(recovery?.type, EVENT_OF[to], `${what}: event ${n0 + 1} is the recovery event`);
  const later = events.slice(n0 + 1);
  if (to === 'failed') {
    assert.equal(task.status, 'failed', what);
    assert.equal(task.error_code, 'server_restarted', what);
    assert.equal(str(recovery.data, 'response', 'error', 'code'), 'server_restarted', what);
  } else if (to === 'cancelled') {
    assert.equal(task.status, 'cancelled', what);
    assert.equal(str(recovery.data, 'response', 'status'), 'cancelled', what);
  } else if (to === 'queued') {
    assert.equal(recovery.data.reason, 'server_restarted', what);
    // It starts over from the queue: loads, runs, and finishes with only the new attempt's text.
    assert.equal(later[0]?.type, 'response.loading', `${what}: runs again after the re-queue`);
    assert.equal(task.status, 'completed', what);
    assert.equal(await finalText(api, responseId, events), deltaText(later), `${what}: final text is the new attempt's deltas alone`);
  } else {
    assert.equal(recovery.data.resumed, true, what);
    assert.ok(!later.some((e) => e.type === 'response.queued' || e.type === 'response.loading'), `${what}: resumed, not restarted`);
    assert.equal(task.status, 'completed', what);
    const text = await finalText(api, responseId, events);
    assert.equal(text, deltaText(events), `${what}: final text is every delta, in order`);
    assert.ok(text.startsWith(deltaText(found.events)), `${what}: continues after the snapshot`);
  }
}

/** SIGKILL has happened: record what the store holds, restart, check every task. */
async function restartAndCheck(dataDir: string, token: string, tasks: ReadonlyMap<string, string>, note: (msg: string) => void): Promise<void> {
  const found = readCrashedStore(dataDir);
  note(`found: ${[...tasks.keys()].map((id) => `${found.get(id)?.status ?? 'missing'}/${found.get(id)?.on_restart ?? '?'}`).join(', ')}`);
  const service = await startService(dataDir, token);
  try {
    for (const taskId of tasks.keys()) {
      const f = found.get(taskId);
      assert.ok(f, `accepted task ${taskId} is in the store`);
      // Recovery runs before the port opens: the first read already shows the recovery event.
      if (isFound(f.status))
        assert.ok((await taskStatus(service.api, taskId)).last_sequence_number > f.last_sequence_number, `${taskId} recovered before serving`);
    }
    await waitAllTerminal(service.api, [...tasks.keys()]);
    for (const [taskId, responseId] of tasks) {
      const f = found.get(taskId);
      if (!f) continue;
      if (isFound(f.status)) {
        await checkRecovered(service, responseId, { ...f, status: f.status });
        exercised.add(`${f.status}/${f.on_restart}`);
      } else {
        // Already finished before the kill: recovery must leave it alone.
        assert.equal((await eventLog(service.api, taskId)).length, f.last_sequence_number, `${taskId} (found ${f.status}) untouched`);
      }
    }
  } finally {
    await service.kill();
  }
}

/** Fresh process: three tasks sit in `loading` (backend start, ~1 s), three more wait `queued`. */
async function killWhileLoading(note: (msg: string) => void): Promise<void> {
  const { dataDir, adminToken } = await prepareCrashDataDir({ max_concurrent_generations: 3 });
  const tasks = new Map<string, string>();
  const first = await startService(dataDir, adminToken);
  try {
    for (const policy of [...POLICIES, ...POLICIES]) {
      const { taskId, responseId } = await createBackground(first.api, policy, 200);
      tasks.set(taskId, responseId);
    }
  } finally {
    await first.kill();
  }
  await restartAndCheck(dataDir, adminToken, tasks, note);
}

/** Six generations at once; three get a cancel, and the process dies as the first 202 arrives. */
async function killWhileRunningAndCancelling(note: (msg: string) => void): Promise<void> {
  const { dataDir, adminToken } = await prepareCrashDataDir({ max_concurrent_generations: 6 });
  const tasks = new Map<string, string>();
  const toCancel: { taskId: string; policy: OnRestart }[] = [];
  const first = await startService(dataDir, adminToken);
  try {
    for (const policy of [...POLICIES, ...POLICIES]) {
      const { taskId, responseId } = await createBackground(first.api, policy, 1000);
      if (tasks.size >= POLICIES.length) toCancel.push({ taskId, policy });
      tasks.set(taskId, responseId);
    }
    await waitGenerating(first.api, [...tasks.keys()], 20);
    // The cancel sent first is the one most surely found `cancelling`: send the cells still missing first.
    const order = [...toCancel].sort((a, b) => Number(exercised.has(`cancelling/${a.policy}`)) - Number(exercised.has(`cancelling/${b.policy}`)));
    const statuses = await cancelThenKillAtFirst(
      first,
      adminToken,
      order.map((c) => c.taskId),
    );
    assert.ok(statuses.includes(202) && statuses.every((s) => s === 202 || s === 0), `cancels answered ${statuses.join(', ')}`);
  } finally {
    await first.kill();
  }
  await restartAndCheck(dataDir, adminToken, tasks, note);
}

test('SIGKILL with tasks loading and queued: each policy moves them as the seed says', { timeout: 150_000 }, async (t) => {
  let rounds = 0;
  for (; missing(['queued', 'loading']).length > 0 && rounds < 3; rounds++) await killWhileLoading((m) => t.diagnostic(m));
  t.diagnostic(`rounds: ${rounds}`);
  assert.deepEqual(missing(['queued', 'loading']), [], 'cells never exercised');
});

test('SIGKILL with tasks running and cancelling: each policy moves them as the seed says', { timeout: 240_000 }, async (t) => {
  let rounds = 0;
  for (; missing(['running', 'cancelling']).length > 0 && rounds < 6; rounds++) await killWhileRunningAndCancelling((m) => t.diagnostic(m));
  t.diagnostic(`rounds: ${rounds}`);
  assert.deepEqual(missing(['running', 'cancelling']), [], 'cells never exercised');
});

test('all 12 cells of the recovery table were exercised for real', () => {
  assert.deepEqual(missing(['queued', 'loading', 'running', 'cancelling']), []);
  assert.equal(exercised.size, 12);
});
