// The clock `sanad serve` runs on. The shipped service reads the wall clock and no test hook: a FIFO
// or a huge number where the old hook looked changes nothing. The soak's test build of the command
// (test/harness/serve-moved-clock.ts) runs on a clock moved by a file, read asynchronously, only as
// a small regular file, with the offset bounded.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, test } from 'node:test';
import { MAX_CLOCK_OFFSET_MS, movedClock } from '../harness/moved-clock.js';
import { prepareDataDir, tempDir } from '../harness/data-dir.js';
import { num } from '../harness/api.js';
import { MOVED_CLOCK_BIN, startServiceProcess, type ServiceProcess } from '../harness/service-process.js';

const HOUR = 3_600_000;
const near = (actual: number, expected: number): boolean => Math.abs(actual - expected) < 1_000;
const services: ServiceProcess[] = [];
after(async () => {
  for (const s of services) await s.stop();
});

test('the moved clock follows its file, and a FIFO, a huge number or a missing file is no stall and no break', async () => {
  const dir = tempDir('sanad-clock-');
  const file = join(dir, 'offset');
  writeFileSync(file, String(2 * HOUR));
  const clock = movedClock(file);
  await sleep(100);
  assert.ok(near(clock.now(), Date.now() + 2 * HOUR), 'two hours ahead');
  writeFileSync(file, String(27 * HOUR));
  await sleep(500);
  assert.ok(near(clock.now(), Date.now() + 27 * HOUR), 'the jump is seen within half a second');
  writeFileSync(file, '1e300');
  await sleep(500);
  assert.ok(near(clock.now(), Date.now() + MAX_CLOCK_OFFSET_MS), 'a huge number is bounded');
  assert.ok(Number.isFinite(new Date(clock.now()).getTime()));
  writeFileSync(file, 'not a number');
  await sleep(500);
  assert.ok(near(clock.now(), Date.now()), 'an unreadable number is no offset');
  rmSync(file);
  execFileSync('mkfifo', [file]);
  // Nobody writes to the FIFO: a synchronous read would hang the process here.
  const t0 = Date.now();
  await sleep(500);
  assert.ok(Date.now() - t0 < 1_500, 'the event loop was never held');
  assert.ok(near(clock.now(), Date.now()), 'a FIFO is no offset');
});

test('the shipped serve ignores clock files; the test build moves its clock', async () => {
  const dir = tempDir('sanad-clock-');
  const fifo = join(dir, 'fifo');
  execFileSync('mkfifo', [fifo]);
  const offsetFile = join(dir, 'offset');
  writeFileSync(offsetFile, String(50 * HOUR));
  const createdAt = async (service: ServiceProcess): Promise<number> => {
    const conv = await service.api.post('/v1/conversations', {});
    assert.equal(conv.status, 200, conv.text);
    return num(conv.body, 'created_at') * 1000;
  };

  const shipped = await prepareDataDir();
  // Where the old hook and the soak's build look: neither is read by the shipped service.
  const plain = await startServiceProcess(shipped.dataDir, shipped.adminToken, { SANAD_TEST_CLOCK_OFFSET_FILE: fifo, SANAD_SOAK_CLOCK_FILE: offsetFile });
  services.push(plain);
  assert.equal((await plain.api.get('/health/live')).status, 200);
  assert.ok(near(await createdAt(plain), Date.now()), 'the wall clock');

  const moved = await prepareDataDir();
  const soak = await startServiceProcess(moved.dataDir, moved.adminToken, { SANAD_SOAK_CLOCK_FILE: offsetFile }, [], MOVED_CLOCK_BIN);
  services.push(soak);
  assert.ok(Math.abs((await createdAt(soak)) - (Date.now() + 50 * HOUR)) < 2_000, 'fifty hours ahead');
});
