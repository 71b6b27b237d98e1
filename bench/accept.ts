// Accepting background tasks: POST /v1/responses {background: true} answered 202 only after the
// task, its response and its first event are committed with fsync. Baseline: the same three inserts
// in one transaction straight into better-sqlite3 with the same pragmas (WAL, synchronous=FULL).
import { performance } from 'node:perf_hooks';
import { newId } from '../src/ids.js';
import { openStore } from '../src/store/open.js';
import { prepareDataDir, tempDir } from '../test/harness/data-dir.js';
import { startServiceProcess } from '../test/harness/service-process.js';
import { percentile } from './stats.js';
import { storePath } from '../src/files/data-dir-layout.js';

export interface RateResult {
  perSecond: number;
  p99Ms: number;
  count: number;
  /** GET /health/live through the same client and concurrency: what HTTP alone allows here. */
  httpFloorPerSecond?: number;
}

async function drive(count: number, concurrency: number, call: () => Promise<void>): Promise<{ perSecond: number; times: number[] }> {
  const times: number[] = [];
  let next = 0;
  const start = performance.now();
  const worker = async (): Promise<void> => {
    while (next < count) {
      next++;
      const t0 = performance.now();
      await call();
      times.push(performance.now() - t0);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return { perSecond: count / ((performance.now() - start) / 1000), times };
}

export function rawInsertRate(count: number): RateResult {
  const db = openStore(storePath(tempDir('sanad-bench-raw-')));
  const insResponse = db.prepare(
    `INSERT INTO responses(id, client_id, model, item_id, request, metadata, background, store, created_at)
     VALUES (?, NULL, 'tiny', ?, ?, NULL, 1, 1, ?)`,
  );
  const insTask = db.prepare(
    `INSERT INTO tasks(id, response_id, client_id, model, status, on_restart, last_sequence_number, created_at, updated_at)
     VALUES (?, ?, NULL, 'tiny', 'queued', 'fail', 1, ?, ?)`,
  );
  const insEvent = db.prepare('INSERT INTO task_events(task_id, sequence_number, type, data, created_at) VALUES (?, 1, ?, ?, ?)');
  const request = JSON.stringify({ input: 'Hello', instructions: null, max_output_tokens: 1, temperature: null, top_p: null });
  const one = db.transaction(() => {
    const now = Math.floor(Date.now() / 1000);
    const resp = newId('resp');
    const task = newId('task');
    insResponse.run(resp, newId('msg'), request, now);
    insTask.run(task, resp, now, now);
    insEvent.run(task, 'response.created', JSON.stringify({ response: { id: resp, status: 'queued' } }), now);
  });
  const times: number[] = [];
  const start = performance.now();
  for (let i = 0; i < count; i++) {
    const t0 = performance.now();
    one();
    times.push(performance.now() - t0);
  }
  const elapsed = (performance.now() - start) / 1000;
  db.close();
  return { perSecond: count / elapsed, p99Ms: percentile(times, 99), count };
}

/**
 * `queueBehindBusyEngine`: a long generation holds the engine first, so the accepted tasks only
 * queue: this isolates the accept path (the 202 promise). Without it each task also runs at once,
 * and its loading/running/completed commits compete with the accepts (the end-to-end cost).
 */
export async function serviceAcceptRate(count: number, concurrency: number, queueBehindBusyEngine: boolean): Promise<RateResult> {
  const prepared = await prepareDataDir({ requests_per_minute_per_client: 1_000_000, max_queued_tasks_per_client: 1_000_000 });
  const service = await startServiceProcess(prepared.dataDir, prepared.adminToken);
  try {
    const body = { model: 'tiny', input: 'Hello', max_output_tokens: 1, background: true };
    await service.api.post('/v1/responses', body); // warm-up: connection, statement caches
    if (queueBehindBusyEngine) {
      await service.api.post('/v1/responses', { ...body, max_output_tokens: 8000 });
    }
    const floor = await drive(count, concurrency, async () => {
      await service.api.get('/health/live');
    });
    const run = await drive(count, concurrency, async () => {
      const r = await service.api.post('/v1/responses', body);
      if (r.status !== 202) throw new Error(`expected 202, got ${r.status}: ${r.text}`);
    });
    return { perSecond: run.perSecond, p99Ms: percentile(run.times, 99), count, httpFloorPerSecond: floor.perSecond };
  } finally {
    await service.stop();
    prepared.cleanup();
  }
}
