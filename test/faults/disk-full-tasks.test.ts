// A full disk at each step of a task's life, on a real small tmpfs holding the data dir: queued,
// loading, running mid-text, cancelling, completing. While the disk is full, writes answer 507
// with a sentence naming the disk, reads keep working and /health/ready fails its disk check.
// Once the ballast is removed, without a restart, every task reaches exactly one terminal state
// with a gap-free event log, and an SSE reader gets its terminal event.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { join } from 'node:path';
import { startAppliance, type Appliance } from '../../src/appliance/appliance.js';
import { engineOptions } from '../../src/appliance/engine-options.js';
import { systemClock } from '../../src/clock.js';
import { LlamaEngine } from '../../src/engine/llama-engine.js';
import { ModelRegistry } from '../../src/engine/registry.js';
import { silentLogger } from '../../src/log/logger.js';
import { openStore } from '../../src/store/open.js';
import { readSettings } from '../../src/store/settings.js';
import { Api, field, str, waitFor } from '../harness/api.js';
import { prepareDataDir } from '../harness/data-dir.js';
import { mountSmallDisk, type SmallDisk } from '../harness/small-disk.js';
import { readSse } from '../harness/sse.js';
import { tinyModelPath } from '../fixtures/tiny-model.js';
import { assertFinishedLog, deltaText, eventLog, finalText, taskStatus } from '../crash/crash-kit.js';
import { FaultEngine } from './fault-engine.js';
import { storePath } from '../../src/files/data-dir-layout.js';

const disk = mountSmallDisk(64);
let app: Appliance | null = null;
let api: Api;
let engine: FaultEngine;

before(async () => {
  if (typeof disk === 'string') return;
  process.env.SANAD_THREADS ??= '1';
  process.env.SANAD_GPU ??= 'off';
  const dataDir = join(disk.path, 'data');
  const prepared = await prepareDataDir({ max_concurrent_generations: 1, requests_per_minute_per_client: 1_000_000 }, dataDir);
  const db = openStore(storePath(dataDir));
  await new ModelRegistry(db, systemClock).add(await tinyModelPath(2), 'tiny-b');
  const settings = readSettings(db);
  db.close();
  engine = new FaultEngine(new LlamaEngine(engineOptions(settings)));
  app = await startAppliance({ dataDir, port: 0, logger: silentLogger, engine: () => engine });
  // Every commit must need new space for the test to know which write meets the full disk: with
  // checkpoints off the WAL only grows (a checkpoint would let later commits reuse its pages).
  app.ctx.writer.pragma('wal_autocheckpoint = 0');
  api = new Api(app.url, prepared.adminToken);
});

after(async () => {
  await app?.close();
  if (typeof disk !== 'string') disk.unmount();
});

const create = async (input: string, model = 'tiny', max = 120): Promise<{ taskId: string; responseId: string }> => {
  const res = await api.post('/v1/responses', { model, input, background: true, max_output_tokens: max });
  assert.equal(res.status, 202, res.text);
  return { taskId: str(res.body, 'task_id'), responseId: str(res.body, 'id') };
};

/** While the disk is full: a write is 507 with the sentence, a read works, readiness fails on `disk`. */
async function checkFullDisk(d: SmallDisk, taskId: string, expected: string): Promise<void> {
  const write = await api.post('/v1/responses', { model: 'tiny', input: 'one more', background: true });
  assert.equal(write.status, 507, write.text);
  assert.equal(str(write.body, 'error', 'code'), 'insufficient_storage');
  const message = str(write.body, 'error', 'message');
  assert.match(message, /is full/);
  assert.ok(message.includes(d.path), `the sentence names the disk: ${message}`);
  assert.equal((await taskStatus(api, taskId)).status, expected, 'the task waits where the disk stopped it');
  const ready = await api.get('/health/ready');
  assert.equal(ready.status, 503, ready.text);
  assert.equal(field(ready.body, 'checks', 'disk', 'ok'), false);
  const status = await api.get('/admin/backups/status');
  const alerts = field(status.body, 'alerts');
  assert.ok(Array.isArray(alerts) && alerts.some((a) => str(a, 'key') === 'disk.full'), 'the Overview and the tray see a disk.full alert');
}

async function finished(taskId: string, responseId: string, what: string): Promise<string> {
  const status = await waitFor(
    async () => {
      const t = await taskStatus(api, taskId);
      return ['completed', 'failed', 'cancelled'].includes(t.status) ? t : undefined;
    },
    60_000,
    `${what} to finish`,
  );
  const events = await eventLog(api, taskId);
  assertFinishedLog(events, status, what);
  if (status.status === 'completed') assert.equal(await finalText(api, responseId, events), deltaText(events), `${what}: every delta is in the final text`);
  return status.status;
}

function filled(d: SmallDisk): { act: () => void; done: Promise<void> } {
  let resolve = (): void => {};
  const done = new Promise<void>((r) => (resolve = r));
  return {
    act: () => {
      d.fill();
      resolve();
    },
    done,
  };
}

test('a full disk at every step of a task: 507 meanwhile, then each task ends once, without a restart', async (t) => {
  if (typeof disk === 'string') return t.skip(disk);
  const d = disk;

  // queued: the disk fills while the task waits behind another one that holds the only slot.
  let release = (): void => {};
  engine.hold('HOLD', new Promise<void>((r) => (release = r)));
  const holder = await create('HOLD the slot');
  await waitFor(async () => (await taskStatus(api, holder.taskId)).status === 'running', 30_000, 'the holder to run');
  const queued = await create('queued behind');
  d.fill();
  await checkFullDisk(d, queued.taskId, 'queued');
  release();
  d.free();
  assert.equal(await finished(holder.taskId, holder.responseId, 'holder'), 'completed');
  assert.equal(await finished(queued.taskId, queued.responseId, 'queued'), 'completed');

  // loading: the disk fills while the model loads, before the task's `running` is written.
  const atLoad = filled(d);
  engine.arm({ point: 'load', match: 'tiny-b', act: atLoad.act });
  const loading = await create('loading step', 'tiny-b');
  await atLoad.done;
  await checkFullDisk(d, loading.taskId, 'loading');
  d.free();
  assert.equal(await finished(loading.taskId, loading.responseId, 'loading'), 'completed');

  // running: the disk fills after 10 pieces of text; the rest is buffered, none of it lost.
  const midText = filled(d);
  engine.arm({ point: 'delta', match: 'MIDTEXT', afterDeltas: 10, act: midText.act });
  const running = await create('MIDTEXT please', 'tiny', 200);
  const sse = readSse(
    `${api.url}/v1/tasks/${running.taskId}/events`,
    { headers: { authorization: `Bearer ${api.token ?? ''}`, accept: 'text/event-stream' } },
    (f) => f.event === 'response.completed' || f.event === 'response.failed' || f.event === 'response.cancelled',
    90_000,
  );
  await midText.done;
  await checkFullDisk(d, running.taskId, 'running');
  d.free();
  assert.equal(await finished(running.taskId, running.responseId, 'running'), 'completed');
  const frames = (await sse).frames;
  assert.equal(frames.at(-1)?.event, 'response.completed', 'the SSE reader got the terminal event once space came back');
  assert.deepEqual(
    frames.map((f) => Number(f.id)),
    frames.map((_, i) => i + 1),
    'the SSE reader saw 1..N with no gap',
  );

  // cancelling: the cancel is accepted, then the disk fills before `cancelled` is written.
  const atCancel = filled(d);
  engine.arm({ point: 'abort', match: 'CANCELME', act: atCancel.act });
  const cancelling = await create('CANCELME later', 'tiny', 8000);
  await waitFor(async () => (await taskStatus(api, cancelling.taskId)).last_sequence_number > 8, 30_000, 'text to flow');
  const cancel = await api.post(`/v1/tasks/${cancelling.taskId}/cancel`);
  assert.equal(cancel.status, 202, cancel.text);
  await atCancel.done;
  await checkFullDisk(d, cancelling.taskId, 'cancelling');
  d.free();
  assert.equal(await finished(cancelling.taskId, cancelling.responseId, 'cancelling'), 'cancelled');

  // completing: generation ends, then the disk fills before `completed` is written.
  const atDone = filled(d);
  engine.arm({ point: 'done', match: 'FINISHME', act: atDone.act });
  const completing = await create('FINISHME now');
  await atDone.done;
  await checkFullDisk(d, completing.taskId, 'running');
  d.free();
  assert.equal(await finished(completing.taskId, completing.responseId, 'completing'), 'completed');

  // Space is back: writes and readiness are as before, and the store is whole.
  const again = await create('after it all');
  assert.equal(await finished(again.taskId, again.responseId, 'after'), 'completed');
  await waitFor(
    async () => (await api.get('/health/ready')).body !== null && field((await api.get('/health/ready')).body, 'checks', 'disk', 'ok') === true,
    10_000,
    'the disk check to pass again',
  );
  assert.equal(app?.ctx.writer.pragma('integrity_check', { simple: true }), 'ok');
});
