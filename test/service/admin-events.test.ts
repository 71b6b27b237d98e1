// GET /admin/events against a real `sanad serve`: a backup started after the stream's `ready` frame
// shows up as its run's throttled `run.updated` events with growing values and one `backup.finished`;
// a token without admin scope is refused in the contract's shape; the stream ends cleanly when the
// service stops. In process: a client that stops reading is dropped, not buffered without bound.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { createWriteStream, readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { systemClock, unixSeconds } from '../../src/clock.js';
import { createClient } from '../../src/store/clients.js';
import { openStore } from '../../src/store/open.js';
import { field, num, type ApiResponse, noOpenRun } from '../harness/api.js';
import { startTestAppliance } from '../harness/appliance.js';
import { prepareDataDir, tempDir } from '../harness/data-dir.js';
import { startServiceProcess } from '../harness/service-process.js';
import { slowRestic } from '../harness/slow-restic.js';
import { readSse, type SseFrame } from '../harness/sse.js';
import { storePath } from '../../src/files/data-dir-layout.js';

/** A registered model file large enough that restic reports progress several times while uploading it. */
async function bigModel(modelPath: string, megabytes: number): Promise<string> {
  const path = join(tempDir(), 'big.gguf');
  const out = createWriteStream(path);
  out.write(readFileSync(modelPath));
  for (let i = 0; i < megabytes; i++) if (!out.write(randomBytes(1 << 20))) await new Promise<void>((r) => out.once('drain', () => r()));
  await new Promise<void>((resolve, reject) => out.end((e?: Error | null) => (e ? reject(e) : resolve())));
  return path;
}

test('GET /admin/events: a backup streams throttled, growing progress and its end; non-admin gets 403; the stream ends on stop', async () => {
  const prepared = await prepareDataDir();
  const db = openStore(storePath(prepared.dataDir));
  const reader = createClient(db, 'reader', ['models:read'], unixSeconds(systemClock));
  const tinyPath = db.prepare<[], { path: string }>("SELECT path FROM models WHERE id = 'tiny'").get()?.path ?? '';
  db.close();
  // restic uploads at 24 MiB/s: the 96 MiB backup takes seconds on any machine, so several reports arrive.
  const service = await startServiceProcess(prepared.dataDir, prepared.adminToken, { SANAD_RESTIC: slowRestic(24 * 1024) });
  try {
    assert.equal((await service.api.post('/admin/models', { path: await bigModel(tinyPath, 96), id: 'big' })).status, 201);
    const denied = await service.api.withToken(reader.token).get('/admin/events');
    assert.equal(denied.status, 403);
    assert.equal(field(denied.body, 'error', 'type'), 'permission_error');
    assert.equal(field(denied.body, 'error', 'code'), 'insufficient_scope');
    assert.equal((await service.api.withToken(null).get('/admin/events')).status, 401);

    const calls: { started?: Promise<ApiResponse>; stopping?: Promise<number | null> } = {};
    const stream = await readSse(
      `${service.url}/admin/events`,
      { headers: { authorization: `Bearer ${prepared.adminToken}` } },
      (frame) => {
        if (frame.event === 'ready') calls.started = service.api.post('/admin/backups');
        return frame.event === 'backup.finished';
      },
      180_000,
    );
    assert.equal(stream.status, 200);
    assert.match(stream.contentType ?? '', /^text\/event-stream/);
    assert.equal(stream.frames[0]?.event, 'ready');
    assert.ok(calls.started);
    assert.equal((await calls.started).status, 202);

    const events = stream.frames.slice(1);
    const ids = events.map((f) => Number(f.id));
    assert.deepEqual(
      ids,
      [...ids].sort((a, b) => a - b),
      'ids increase',
    );
    for (const f of events) assert.equal(field(f.data, 'type'), f.event, 'data carries the event');
    const progress = events
      .filter((f) => f.event === 'run.updated' && field(f.data, 'data', 'kind') === 'backup' && field(f.data, 'data', 'progress') !== null)
      .map((f) => ({ at: num(f.data, 'at'), ...progressOf(f) }));
    assert.equal(progress[0]?.phase, 'generation', 'the first report is the generation step');
    const uploads = progress.filter((p) => p.phase === 'upload' && p.repository === 'local');
    assert.ok(uploads.length >= 3, `several upload reports (${uploads.length})`);
    for (let i = 1; i < uploads.length; i++) {
      const [a, b] = [uploads[i - 1], uploads[i]];
      assert.ok(a && b && b.bytes_done >= a.bytes_done, 'uploaded bytes never go back');
      assert.ok(a && b && b.at - a.at >= 495, `at most two reports a second within a phase (${b ? b.at - (a?.at ?? 0) : 0} ms)`);
    }
    const first = uploads[0];
    const last = uploads.at(-1);
    assert.ok(first && last && last.bytes_done > first.bytes_done && last.percent > first.percent, 'and it grows');
    assert.ok(last.total_bytes > 90 * 1024 * 1024, 'totals cover the big model');
    const finished = events.at(-1);
    assert.equal(finished?.event, 'backup.finished');
    assert.equal(field(finished?.data, 'data', 'status'), 'ok');
    assert.deepEqual(field(finished?.data, 'data', 'repositories'), [{ name: 'local', ok: true, error: null }]);
    assert.equal(await noOpenRun(service.api, 'backup'), true, 'idle when finished arrives');

    // A stream open when the service stops ends normally (no reset, no hang).
    const last2 = await readSse(
      `${service.url}/admin/events`,
      { headers: { authorization: `Bearer ${prepared.adminToken}` } },
      (frame) => {
        if (frame.event === 'ready') calls.stopping = service.stop();
        return false;
      },
      60_000,
    );
    assert.deepEqual(
      last2.frames.map((f: SseFrame) => f.event),
      ['ready'],
    );
    assert.ok(calls.stopping);
    assert.equal(await calls.stopping, 0, 'the service stopped cleanly with a stream open');
  } finally {
    await service.kill();
  }
});

function progressOf(f: SseFrame): { phase: string; repository: string | null; percent: number; bytes_done: number; total_bytes: number } {
  const p = field(f.data, 'data', 'progress');
  const repo = field(p, 'repository');
  const count = (name: string): number => (typeof field(p, name) === 'number' ? num(p, name) : 0);
  return {
    phase: String(field(p, 'phase')),
    repository: typeof repo === 'string' ? repo : null,
    percent: count('percent'),
    bytes_done: count('bytes_done'),
    total_bytes: count('total_bytes'),
  };
}

test('GET /admin/events: a client that stops reading is dropped once 1 MiB is waiting for it', async () => {
  const t = await startTestAppliance();
  try {
    const bus = t.appliance.ctx.adminEvents;
    const socket = connect(t.appliance.port, '127.0.0.1');
    const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    socket.on('error', () => undefined);
    const head = new Promise<string>((resolve) => socket.once('data', (d: Buffer) => resolve(d.toString())));
    socket.write(`GET /admin/events HTTP/1.1\r\nHost: 127.0.0.1:${t.appliance.port}\r\nAuthorization: Bearer ${t.adminToken}\r\n\r\n`);
    assert.match(await head, /^HTTP\/1\.1 200/);
    socket.pause();
    assert.equal(bus.listenerCount, 1);
    const step = 'x'.repeat(64 * 1024);
    // 32 MiB offered to a reader that reads nothing: more than the kernel buffers plus the bound.
    for (let i = 0; i < 512 && bus.listenerCount > 0; i++)
      bus.publish('run.updated', {
        run_id: 1,
        id: 1,
        kind: 'backup',
        trigger: 'manual',
        status: 'running',
        error: null,
        generation: null,
        started_at: 0,
        ended_at: null,
        progress: { phase: 'generation', step },
        waiting_for: [],
      });
    assert.equal(bus.dropped, 0, 'every event published matched the contract');
    assert.equal(bus.listenerCount, 0, 'the slow client was unsubscribed');
    await closed;
  } finally {
    await t.close();
  }
});
