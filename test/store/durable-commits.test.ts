// Commits on the loop, fsync of the WAL on the thread pool: nothing is answered or streamed before
// the fsync that covers it has ended, many commits share one fsync, and a failed fsync is never
// followed by a claim of durability. The fsync is the real one, wrapped so a test can count it and
// hold it back (what a slow disk does).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fstatSync, fsync, statSync } from 'node:fs';
import { DurableCommits, type Fsync } from '../../src/store/durable-commits.js';
import { openStore } from '../../src/store/open.js';
import { startTestAppliance } from '../harness/appliance.js';
import { tempDir } from '../harness/data-dir.js';
import { readSse } from '../harness/sse.js';
import { storePath } from '../../src/files/data-dir-layout.js';

interface HeldDisk {
  fsync: Fsync;
  /** The fd of each fsync asked for, in order. */
  calls: number[];
  held: boolean;
  /** The next fsync fails with this instead of running. */
  failNext: Error | null;
  release(): void;
}

/** The real fsync, counted, and held back while `held` until release(). */
function heldFsync(): HeldDisk {
  const queued: Array<() => void> = [];
  const state: HeldDisk = {
    calls: [],
    held: false,
    failNext: null,
    fsync: (fd, done) => {
      state.calls.push(fd);
      const run = (): void => {
        const failure = state.failNext;
        state.failNext = null;
        if (failure) setImmediate(() => done(failure));
        else fsync(fd, done);
      };
      if (state.held) queued.push(run);
      else run();
    },
    release(): void {
      state.held = false;
      for (const run of queued.splice(0)) run();
    },
  };
  return state;
}

const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** A fresh store with its durable commits on a held disk; `done()` closes both. */
function durableStore(): { path: string; db: ReturnType<typeof openStore>; disk: HeldDisk; durable: DurableCommits; done: () => Promise<void> } {
  const path = storePath(tempDir());
  const db = openStore(path);
  const disk = heldFsync();
  const durable = DurableCommits.attach(db, path, disk.fsync);
  return {
    path,
    db,
    disk,
    durable,
    done: async () => {
      await durable.close();
      db.close();
    },
  };
}

test('many commits share one fsync of the WAL file, and each waits for an fsync that began after it', async () => {
  const { path, db, disk, durable, done } = durableStore();
  try {
    assert.equal(db.pragma('synchronous', { simple: true }), 1, 'the connection commits without its own fsync (NORMAL)');
    await durable.settled();
    assert.equal(disk.calls.length, 0, 'nothing committed: nothing to fsync');

    const write = db.prepare("INSERT INTO service_config(key, value, updated_at) VALUES (?, '1', 0) ON CONFLICT(key) DO UPDATE SET value = excluded.value");
    write.run('a');
    disk.held = true;
    let settledA = 0;
    const first = Array.from({ length: 50 }, () => durable.settled().then(() => settledA++));
    await tick();
    assert.equal(disk.calls.length, 1, '50 waiters, one fsync');
    const fd = disk.calls[0] ?? -1;
    assert.equal(fstatSync(fd).ino, statSync(`${path}-wal`).ino, 'the fsync is of the WAL file');
    // A commit made while that fsync runs is not covered by it.
    write.run('b');
    let settledB = false;
    const second = durable.settled().then(() => (settledB = true));
    await tick();
    assert.equal(settledA, 0, 'no waiter settles before its fsync has ended');
    disk.release();
    await Promise.all(first);
    assert.equal(settledA, 50);
    await second;
    assert.ok(settledB);
    assert.equal(disk.calls.length, 2, 'the later commit needed a second fsync, and only one');
  } finally {
    await done();
  }
});

test('after a failed fsync nothing is ever called durable again', async () => {
  const { db, disk, durable, done } = durableStore();
  try {
    db.prepare("INSERT INTO service_config(key, value, updated_at) VALUES ('x', '1', 0)").run();
    disk.failNext = Object.assign(new Error('EIO: i/o error, fsync'), { code: 'EIO' });
    await assert.rejects(durable.settled(), /could not write its store to the disk \(EIO/);
    // The next fsync would succeed, but the pages the failed one dropped are gone: still refused.
    await assert.rejects(durable.settled(), /nothing since is saved/);
  } finally {
    await done();
  }
});

test('a 202 and a streamed event leave only after the fsync that covers their commit', async () => {
  const disk = heldFsync();
  const t = await startTestAppliance({ fsync: disk.fsync });
  try {
    disk.held = true;
    let answered = false;
    const accepted = t.api.post('/v1/responses', { model: 'tiny', input: 'Hello', max_output_tokens: 4, background: true }).then((r) => {
      answered = true;
      return r;
    });
    // Wait until the create has committed and its fsync is waiting on the (held) disk.
    for (let i = 0; i < 200 && disk.calls.length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 5));
    assert.ok(disk.calls.length > 0, 'the create asked for an fsync');
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.equal(answered, false, 'no 202 while its commit is only in the cache');
    disk.release();
    const r = await accepted;
    assert.equal(r.status, 202);
    const body = typeof r.body === 'object' && r.body !== null && 'task_id' in r.body ? r.body : null;
    assert.ok(body && typeof body.task_id === 'string');
    const replay = await readSse(
      `${t.appliance.url}/v1/tasks/${body.task_id}/events`,
      { headers: { authorization: `Bearer ${t.adminToken}`, accept: 'text/event-stream' } },
      (f) => f.event === 'response.completed',
    );
    assert.deepEqual(
      replay.frames.map((f) => Number(f.id)),
      replay.frames.map((_, i) => i + 1),
      'every event, in order, no gap',
    );

    // A stream: its headers leave at once, its first event only after the fsync of its commit.
    disk.held = true;
    const before = disk.calls.length;
    const res = await fetch(`${t.appliance.url}/v1/responses`, {
      method: 'POST',
      headers: { authorization: `Bearer ${t.adminToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'tiny', input: 'Hello', max_output_tokens: 4, stream: true }),
    });
    assert.equal(res.status, 200);
    const reader = res.body?.getReader();
    assert.ok(reader);
    const firstChunk = reader.read();
    const early = await Promise.race([firstChunk.then(() => 'an event'), new Promise((resolve) => setTimeout(() => resolve('nothing'), 150))]);
    assert.equal(early, 'nothing', 'no event is streamed while its commit is only in the cache');
    assert.ok(disk.calls.length > before, 'the stream waits on an fsync');
    disk.release();
    const value: unknown = (await firstChunk).value;
    assert.ok(value instanceof Uint8Array);
    assert.match(new TextDecoder().decode(value), /response\.created/);
    await reader.cancel();
  } finally {
    disk.release();
    await t.close();
  }
});
