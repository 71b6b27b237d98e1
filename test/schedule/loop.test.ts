// The one schedule loop (src/schedule/loop.ts) under the backup and drill schedules, on a manual
// clock: a decision that counts from the last run catches up once after a long sleep, never runs
// twice at once, and stop waits for the run in flight (or abandons it when told to give up).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ManualClock } from '../../src/clock.js';
import { silentLogger } from '../../src/log/logger.js';
import { ScheduleLoop, type ScheduledRun } from '../../src/schedule/loop.js';

const H = 3_600_000;

function everySixHours(clock: ManualClock) {
  const runs: number[] = [];
  let last: number | null = null;
  let open: (() => void) | null = null;
  let concurrent = 0;
  let maxConcurrent = 0;
  const checks: boolean[] = [];
  const loop = new ScheduleLoop({
    name: 'test',
    logger: silentLogger,
    tickMs: 3_600_000,
    check: (inFlight): ScheduledRun | null => {
      checks.push(inFlight);
      if (inFlight || (last !== null && clock.now() - last < 6 * H)) return null;
      last = clock.now();
      return async (signal) => {
        runs.push(clock.now());
        concurrent++;
        maxConcurrent = Math.max(maxConcurrent, concurrent);
        await new Promise<void>((resolve) => {
          open = resolve;
          signal.addEventListener('abort', () => resolve(), { once: true });
        });
        concurrent--;
      };
    },
  });
  return { loop, runs, checks, finish: () => open?.(), stats: () => ({ maxConcurrent }) };
}

test('after a long sleep the loop catches up once, not once per missed slot', async () => {
  const clock = new ManualClock(Date.parse('2026-12-01T00:00:00Z'));
  const s = everySixHours(clock);
  const first = s.loop.start();
  assert.equal(s.runs.length, 1, 'start checks at once: the first run');
  s.finish();
  await first;
  clock.advance(5 * 24 * H); // twenty missed slots while the machine slept
  const woke = s.loop.wake();
  const again = s.loop.wake(); // a second wake while that run is in flight starts nothing
  assert.equal(s.runs.length, 2, 'one catch-up run');
  assert.equal(s.loop.running, true);
  s.finish();
  await Promise.all([woke, again]);
  await s.loop.wake();
  assert.equal(s.runs.length, 2, 'nothing more is due: the cadence counts from the catch-up');
  clock.advance(6 * H);
  const next = s.loop.wake();
  assert.equal(s.runs.length, 3, 'the next slot six hours after the catch-up');
  s.finish();
  await next;
  assert.equal(s.stats().maxConcurrent, 1, 'never two runs at once');
  assert.ok(s.checks.includes(true), 'the decision was told a run was in flight');
  await s.loop.stop();
});

test('stop waits for the run in flight; a stop that gives up aborts it and returns', async () => {
  const clock = new ManualClock(Date.parse('2026-12-01T00:00:00Z'));
  const s = everySixHours(clock);
  void s.loop.start();
  let stopped = false;
  const stopping = s.loop.stop().then(() => (stopped = true));
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(stopped, false, 'stop waits while the run is in flight');
  s.finish();
  await stopping;
  assert.equal(s.loop.running, false);
  clock.advance(24 * H);
  await s.loop.wake();
  assert.equal(s.runs.length, 1, 'a stopped loop starts nothing');

  const t = everySixHours(clock);
  void t.loop.start();
  const giveUp = new AbortController();
  const halted = t.loop.stop(giveUp.signal);
  giveUp.abort();
  await halted;
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(t.loop.running, false, 'the abandoned run saw its signal abort and ended');
});
