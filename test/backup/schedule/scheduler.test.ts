// The scheduler with a ManualClock: time moves by hand, runs are counted, nothing sleeps for hours.
// The fake `run` records its start as the caller would (lastRunAt is persisted by the caller).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BackupScheduler, type RunTrigger } from '../../../src/backup/schedule.js';
import { ManualClock } from '../../../src/clock.js';
import { silentLogger } from '../../../src/log/logger.js';

const H = 3_600_000;
const DAY = 24 * H;

interface Harness {
  clock: ManualClock;
  scheduler: BackupScheduler;
  runs: Array<{ trigger: RunTrigger; at: number }>;
  state: { paused: boolean; lastRunAt: number | null; concurrent: number; maxConcurrent: number };
  /** When set, each run waits for this before finishing. */
  gate: { wait: Promise<void> | null };
}

function harness(options: { lastRunAt?: number | null; paused?: boolean; tickMs?: number } = {}): Harness {
  const clock = new ManualClock(Date.parse('2026-03-01T00:00:00Z'));
  const runs: Harness['runs'] = [];
  const state = { paused: options.paused ?? false, lastRunAt: options.lastRunAt ?? null, concurrent: 0, maxConcurrent: 0 };
  const gate: Harness['gate'] = { wait: null };
  const scheduler = new BackupScheduler({
    clock,
    intervalMs: () => 6 * H,
    paused: () => state.paused,
    lastRunAt: () => state.lastRunAt,
    logger: silentLogger,
    tickMs: options.tickMs ?? 3_600_000,
    run: async (trigger) => {
      state.lastRunAt = clock.now();
      runs.push({ trigger, at: clock.now() });
      state.concurrent++;
      state.maxConcurrent = Math.max(state.maxConcurrent, state.concurrent);
      try {
        if (gate.wait) await gate.wait;
      } finally {
        state.concurrent--;
      }
    },
  });
  return { clock, scheduler, runs, state, gate };
}

test('first start with no previous run: exactly one run, then nothing until the interval', async () => {
  const h = harness();
  await h.scheduler.start();
  // Nothing was missed on a data dir that never backed up: its run is the first one (issue 11).
  assert.deepEqual(
    h.runs.map((r) => r.trigger),
    ['first'],
  );
  await h.scheduler.wake();
  h.clock.advance(6 * H - 1);
  await h.scheduler.wake();
  assert.equal(h.runs.length, 1);
  assert.equal(h.scheduler.nextRunAt(), h.runs[0]!.at + 6 * H);
  await h.scheduler.stop();
});

test('every interval: one run each, on the schedule', async () => {
  const h = harness();
  await h.scheduler.start();
  const first = h.clock.now();
  for (let i = 1; i <= 8; i++) {
    // Checks as the minute timer would make them: many per interval, one run per interval.
    for (let m = 0; m < 6 * 60; m += 30) {
      h.clock.advance(30 * 60_000);
      await h.scheduler.wake();
    }
    assert.equal(h.runs.length, 1 + i, `run ${i}`);
  }
  assert.deepEqual(
    h.runs.map((r) => r.at - first),
    Array.from({ length: 9 }, (_, i) => i * 6 * H),
  );
  assert.ok(h.runs.slice(1).every((r) => r.trigger === 'schedule'));
  await h.scheduler.stop();
});

test('after a 3-day sleep: exactly one catch-up run, then the cadence resumes from it', async () => {
  const h = harness();
  await h.scheduler.start();
  h.clock.advance(3 * DAY + 17 * 60_000);
  const woke = h.clock.now();
  await h.scheduler.wake();
  await h.scheduler.wake();
  assert.deepEqual(
    h.runs.map((r) => r.trigger),
    ['first', 'catch-up'],
    'one catch-up, not twelve',
  );
  assert.equal(h.runs[1]!.at, woke);
  assert.equal(h.scheduler.nextRunAt(), woke + 6 * H);
  h.clock.advance(6 * H - 1);
  await h.scheduler.wake();
  assert.equal(h.runs.length, 2);
  h.clock.advance(1);
  await h.scheduler.wake();
  assert.deepEqual(h.runs.slice(2), [{ trigger: 'schedule', at: woke + 6 * H }]);
  await h.scheduler.stop();
});

test('app closed for days: start runs one catch-up from the persisted last run', async () => {
  const clock0 = Date.parse('2026-03-01T00:00:00Z');
  const h = harness({ lastRunAt: clock0 - 5 * DAY });
  await h.scheduler.start();
  await h.scheduler.wake();
  assert.deepEqual(h.runs, [{ trigger: 'catch-up', at: clock0 }]);
  // A recent persisted run is honoured: a restart does not run again.
  const h2 = harness({ lastRunAt: clock0 - 2 * H });
  await h2.scheduler.start();
  assert.equal(h2.runs.length, 0);
  assert.equal(h2.scheduler.nextRunAt(), clock0 + 4 * H);
  await Promise.all([h.scheduler.stop(), h2.scheduler.stop()]);
});

test('a run in progress when another is due: no second concurrent run, none queued', async () => {
  const h = harness();
  let release = (): void => {};
  h.gate.wait = new Promise<void>((r) => (release = r));
  const started = h.scheduler.start();
  assert.equal(h.state.concurrent, 1);
  for (let i = 0; i < 5; i++) {
    h.clock.advance(7 * H);
    await h.scheduler.wake();
  }
  assert.equal(h.runs.length, 1, 'no run started while one is in flight');
  assert.equal(h.scheduler.running, true);
  release();
  await started;
  assert.equal(h.scheduler.running, false);
  h.gate.wait = null;
  // Overdue now: the next check runs one (the skipped ones were not queued).
  await h.scheduler.wake();
  await h.scheduler.wake();
  assert.equal(h.runs.length, 2);
  assert.equal(h.state.maxConcurrent, 1);
  await h.scheduler.stop();
});

test('paused: no runs at all, and no next run time', async () => {
  const h = harness({ paused: true });
  await h.scheduler.start();
  for (let i = 0; i < 10; i++) {
    h.clock.advance(7 * H);
    await h.scheduler.wake();
  }
  assert.equal(h.runs.length, 0);
  assert.equal(h.scheduler.nextRunAt(), null);
  h.state.paused = false;
  await h.scheduler.wake();
  assert.equal(h.runs.length, 1, 'unpausing runs one catch-up');
  await h.scheduler.stop();
});

test('a failing run does not stop the schedule and is not retried every tick', async () => {
  const clock = new ManualClock(1_800_000_000_000);
  let calls = 0;
  const scheduler = new BackupScheduler({
    clock,
    intervalMs: () => 6 * H,
    paused: () => false,
    // The caller failed before persisting anything.
    lastRunAt: () => null,
    logger: silentLogger,
    run: async () => {
      calls++;
      throw new Error('disk full');
    },
  });
  await scheduler.start();
  await scheduler.wake();
  assert.equal(calls, 1);
  clock.advance(6 * H);
  await scheduler.wake();
  assert.equal(calls, 2);
  await scheduler.stop();
});

test('the timer checks on its own every tickMs', async () => {
  const h = harness({ tickMs: 5 });
  await h.scheduler.start();
  h.clock.advance(6 * H);
  const deadline = Date.now() + 2000;
  while (h.runs.length < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
  assert.deepEqual(
    h.runs.map((r) => r.trigger),
    ['first', 'schedule'],
  );
  await h.scheduler.stop();
  h.clock.advance(6 * H);
  await new Promise((r) => setTimeout(r, 30));
  assert.equal(h.runs.length, 2, 'no run after stop');
});

test('stop waits for the in-flight run; an aborted stop abandons it and aborts its signal', async () => {
  const clock = new ManualClock(1_800_000_000_000);
  let finished = false;
  let runSignal: AbortSignal | undefined;
  const scheduler = new BackupScheduler({
    clock,
    intervalMs: () => 6 * H,
    paused: () => false,
    lastRunAt: () => null,
    logger: silentLogger,
    run: (_trigger, signal) => {
      runSignal = signal;
      return new Promise<void>((resolve) => setTimeout(() => ((finished = true), resolve()), 50));
    },
  });
  void scheduler.start();
  await scheduler.stop();
  assert.equal(finished, true, 'stop returned after the run finished');

  finished = false;
  const s2 = new BackupScheduler({
    clock,
    intervalMs: () => 6 * H,
    paused: () => false,
    lastRunAt: () => null,
    logger: silentLogger,
    run: (_trigger, signal) => {
      runSignal = signal;
      // A run that ignores its signal and would take far too long.
      return new Promise<void>((resolve) => setTimeout(() => resolve(), 5_000).unref());
    },
  });
  void s2.start();
  const t0 = Date.now();
  // Not AbortSignal.timeout: its timer is unref'd, and nothing else here keeps the loop alive.
  const giveUp = new AbortController();
  setTimeout(() => giveUp.abort(), 30);
  await s2.stop(giveUp.signal);
  assert.ok(Date.now() - t0 < 2_000, 'stop gave up waiting');
  assert.equal(runSignal?.aborted, true, "the run's signal was aborted");
});
