// Workers started ahead of their question (process/worker-call.ts, prestartWorkers): the next call
// of that script is answered by the waiting worker, with the question sent as a message; later
// calls start their own; unused ones keep no process alive and close() ends them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { callWorker, prestartWorkers } from '../../src/process/worker-call.js';
import { integrityCheck, INTEGRITY_WORKER } from '../../src/store/integrity.js';
import { openStore } from '../../src/store/open.js';
import { tempDir } from '../harness/data-dir.js';

const ECHO = new URL('./fixtures/echo-worker.js', import.meta.url);

interface Echo {
  question: unknown;
  warm: boolean;
}
const isEcho = (m: unknown): m is Echo => typeof m === 'object' && m !== null && 'warm' in m && typeof m.warm === 'boolean';

test('the waiting worker answers the next call, with the question sent to it; the call after starts its own', async () => {
  const warm = prestartWorkers([ECHO]);
  try {
    const first = await callWorker(ECHO, { n: 1 }, { timeLimitMs: 20_000, isAnswer: isEcho });
    const second = await callWorker(ECHO, { n: 2 }, { timeLimitMs: 20_000, isAnswer: isEcho });
    assert.deepEqual(first, { ok: true, value: { question: { n: 1 }, warm: true } });
    assert.deepEqual(second, { ok: true, value: { question: { n: 2 }, warm: false } });
  } finally {
    warm.close();
  }
});

test('a warm integrity worker gives the same verdicts as a cold one, for a whole store and a damaged file', async () => {
  const dir = tempDir();
  const good = join(dir, 'good.db');
  openStore(good).close();
  const bad = join(dir, 'bad.db');
  writeFileSync(bad, Buffer.alloc(8192, 7));
  for (const path of [good, bad]) {
    const warm = prestartWorkers([INTEGRITY_WORKER]);
    const warmVerdict = await integrityCheck(path);
    warm.close();
    assert.deepEqual(warmVerdict, await integrityCheck(path));
  }
  assert.equal((await integrityCheck(good)).whole, true);
  assert.equal((await integrityCheck(bad)).whole, false);
});

test('workers nobody took keep no process alive', () => {
  const script = `import { prestartWorkers } from ${JSON.stringify(new URL('../../src/process/worker-call.js', import.meta.url).href)};
prestartWorkers([new URL(${JSON.stringify(ECHO.href)})]);
console.log('started');`;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', timeout: 20_000 });
  assert.equal(r.signal, null, 'the process ended by itself, not by the time limit');
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stdout.trim(), 'started');
});
