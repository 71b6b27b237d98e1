// What issue 27's defences cost, each against a baseline measured in the same run:
// - admitting a store from a backup (a worker: schema compared with a known version's, then
//   integrity_check) against the bare integrity_check on this thread, on the same file;
// - scrubbing a generation's store copy (a worker: drop credentials, VACUUM) against SQLite's online
//   backup of the same store (the copy it follows, which every backup already paid);
// - secure_delete: deleting response-sized rows with it on against the same deletes with it off;
// - the connection guard: kept-alive GETs of one Fastify route with the guard on its server against
//   the same route without it (both over loopback, 4 at a time, alternating rounds).
import Database from 'better-sqlite3';
import Fastify from 'fastify';
import { randomBytes } from 'node:crypto';
import { copyFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { scrubStoreCopy } from '../src/backup/generation/store-copy.js';
import { guardConnections, REQUEST_WAIT_MS, RESERVED_FOR_ADMIN } from '../src/service/connection-guard.js';
import { admitUntrustedStore } from '../src/store/untrusted-store.js';
import { tempDir } from '../test/harness/data-dir.js';
import { backupDataSet } from './backup-data.js';
import { median } from './stats.js';
import { storePath } from '../src/files/data-dir-layout.js';

export interface SecurityBench {
  storeBytes: number;
  admitMs: number;
  integrityMs: number;
  scrubMs: number;
  backupCopyMs: number;
  secureDeleteMs: number;
  plainDeleteMs: number;
  guardedPerSecond: number;
  barePerSecond: number;
}

async function timedAsync(fn: () => Promise<unknown>, runs: number): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    await fn();
    times.push(performance.now() - t0);
  }
  return median(times);
}

function integrityOnThisThread(path: string): void {
  const db = new Database(path, { readonly: true, fileMustExist: true });
  try {
    if (db.pragma('integrity_check', { simple: true }) !== 'ok') throw new Error('the bench store should be whole');
  } finally {
    db.close();
  }
}

/** `rows` inserts of ~4 KB text, then all deleted one by one; the deletes' time. */
function deleteRows(secure: boolean, rows: number): number {
  const db = new Database(join(tempDir('sanad-bench-delete-'), 'x.db'));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.pragma(`secure_delete = ${secure ? 'ON' : 'OFF'}`);
  db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, body TEXT NOT NULL)');
  const ins = db.prepare('INSERT INTO t (id, body) VALUES (?, ?)');
  db.transaction(() => {
    for (let i = 0; i < rows; i++) ins.run(i, randomBytes(3000).toString('base64'));
  })();
  const del = db.prepare('DELETE FROM t WHERE id = ?');
  const t0 = performance.now();
  for (let i = 0; i < rows; i++) del.run(i);
  const ms = performance.now() - t0;
  db.close();
  return ms;
}

async function getRate(url: string, seconds: number): Promise<number> {
  let done = 0;
  const until = performance.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      while (performance.now() < until) {
        const res = await fetch(url);
        await res.arrayBuffer();
        done += 1;
      }
    }),
  );
  return done / seconds;
}

export async function securityBench(tasks: number, runs: number): Promise<SecurityBench> {
  const data = await backupDataSet(tasks, 1);
  const path = storePath(data.dataDir);
  data.db.pragma('wal_checkpoint(TRUNCATE)');
  const storeBytes = statSync(path).size;
  const admitMs = await timedAsync(async () => {
    const v = await admitUntrustedStore(path, { integrity: true });
    if (!v.ok) throw new Error(`the bench store should be admitted: ${v.problem}`);
  }, runs);
  const integrityMs = await timedAsync(async () => integrityOnThisThread(path), runs);
  const scratch = tempDir('sanad-bench-scrub-');
  const backupCopyMs = await timedAsync(async () => {
    await data.db.backup(join(scratch, `copy-${performance.now()}.db`));
  }, runs);
  const scrubMs = await timedAsync(async () => {
    const copy = join(scratch, `scrub-${performance.now()}.db`);
    copyFileSync(path, copy);
    await scrubStoreCopy(copy);
  }, runs);
  data.db.close();

  const rows = 5000;
  const plainDeleteMs = median(Array.from({ length: runs }, () => deleteRows(false, rows)));
  const secureDeleteMs = median(Array.from({ length: runs }, () => deleteRows(true, rows)));

  const rates: { guarded: number[]; bare: number[] } = { guarded: [], bare: [] };
  const servers = await Promise.all(
    [true, false].map(async (guard) => {
      const app = Fastify({ logger: false, keepAliveTimeout: REQUEST_WAIT_MS });
      if (guard) guardConnections(app.server, { maxConnections: 1024, reserved: RESERVED_FOR_ADMIN });
      app.get('/health/live', async () => ({ status: 'live' }));
      await app.listen({ host: '127.0.0.1', port: 0 });
      const address = app.server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      return { app, guard, url: `http://127.0.0.1:${port}/health/live` };
    }),
  );
  // Six rounds, each server first in every other one: the order alone moved a three-round median by 30 %.
  for (let round = 0; round < 6; round++) {
    for (const s of round % 2 === 0 ? servers : [...servers].reverse()) (s.guard ? rates.guarded : rates.bare).push(await getRate(s.url, 2));
  }
  for (const s of servers) await s.app.close();
  return {
    storeBytes,
    admitMs,
    integrityMs,
    scrubMs,
    backupCopyMs,
    secureDeleteMs,
    plainDeleteMs,
    guardedPerSecond: median(rates.guarded),
    barePerSecond: median(rates.bare),
  };
}
