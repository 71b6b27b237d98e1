// The drill schedule with a ManualClock and a real store: the first drill 5 minutes after start,
// then 24 h after the last completed one (persisted: a restarted scheduler keeps the cadence), deep
// when the last deep one is a week old, never two at once, never during a backup, paused = none.
// The drills themselves are simulated: the run callback records a finished drill in the runs record
// through the real functions (no restic), so the schedule reads what real drills leave behind.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ManualClock, unixSeconds } from '../../src/clock.js';
import { lastFinishedRun } from '../../src/drill/drill-runs.js';
import { drillRow } from '../harness/run-rows.js';
import { decideDrill, DrillScheduler, nextDrillAt } from '../../src/drill/schedule.js';
import type { DrillKind } from '../../src/drill/verdict.js';
import { silentLogger } from '../../src/log/logger.js';
import { openStore, type Db } from '../../src/store/open.js';

const MIN = 60_000;
const H = 60 * MIN;
const DAY = 24 * H;

interface Harness {
  clock: ManualClock;
  db: Db;
  runs: Array<{ kind: DrillKind; at: number }>;
  state: { paused: boolean; backupBusy: boolean; otherDrill: boolean; concurrent: number; maxConcurrent: number; durationMs: number };
  gate: { wait: Promise<void> | null };
  scheduler(): DrillScheduler;
}

function harness(db: Db = openStore(':memory:'), clock = new ManualClock(Date.parse('2026-03-01T08:00:00Z'))): Harness {
  const runs: Harness['runs'] = [];
  const state = { paused: false, backupBusy: false, otherDrill: false, concurrent: 0, maxConcurrent: 0, durationMs: 2 * MIN };
  const gate: Harness['gate'] = { wait: null };
  const scheduler = (): DrillScheduler =>
    new DrillScheduler({
      clock,
      paused: () => state.paused,
      lastFinished: () => {
        const ms = (kind?: DrillKind): number | null => {
          const run = lastFinishedRun(db, kind);
          return run === null || run.finished_at === null ? null : run.finished_at * 1000;
        };
        return { any: ms(), deep: ms('deep') };
      },
      backupBusy: () => state.backupBusy,
      logger: silentLogger,
      tickMs: DAY,
      run: async (kind) => {
        if (state.otherDrill) return 'busy';
        runs.push({ kind, at: clock.now() });
        state.concurrent++;
        state.maxConcurrent = Math.max(state.maxConcurrent, state.concurrent);
        try {
          const row = drillRow(db, { kind, trigger: 'schedule', startedAt: unixSeconds(clock) });
          if (gate.wait) await gate.wait;
          clock.advance(state.durationMs);
          row.finish('PASS', [], unixSeconds(clock));
        } finally {
          state.concurrent--;
        }
        return 'ran';
      },
    });
  return { clock, db, runs, state, gate, scheduler };
}

test('decideDrill and nextDrillAt: 5 minutes after start, then 24 h from the last, deep weekly', () => {
  const start = 1_000 * DAY;
  assert.equal(nextDrillAt(start, null, start), start + 5 * MIN);
  assert.equal(nextDrillAt(start, start - 2 * H, start), start - 2 * H + DAY, 'a recent drill: 24 h after it');
  assert.equal(nextDrillAt(start, start - 2 * DAY, start), start + 5 * MIN, 'an old one: 5 minutes after start, not at once');
  assert.equal(nextDrillAt(start, start + DAY, start), start + 5 * MIN, 'a drill in the future (clock went back) says nothing');
  const base = { startedAt: start, paused: false, running: false, backupBusy: false };
  assert.deepEqual(decideDrill({ ...base, now: start + 4 * MIN, lastAny: null, lastDeep: null }), { run: false, why: 'not_due' });
  assert.deepEqual(decideDrill({ ...base, now: start + 5 * MIN, lastAny: null, lastDeep: null }), { run: true, kind: 'deep' });
  assert.deepEqual(
    decideDrill({ ...base, now: start + DAY, lastAny: start, lastDeep: start + DAY - 7 * DAY + 1 }),
    { run: true, kind: 'daily' },
    'a deep drill 1 ms short of a week ago',
  );
  assert.deepEqual(
    decideDrill({ ...base, now: start + DAY, lastAny: start, lastDeep: start + DAY - 7 * DAY }),
    { run: true, kind: 'deep' },
    'a week ago to the ms',
  );
  assert.deepEqual(
    decideDrill({ ...base, now: start + 5 * MIN, lastAny: start + MIN, lastDeep: null }),
    { run: true, kind: 'deep' },
    'a daily drill just ran: the never-run deep one is due anyway',
  );
  assert.deepEqual(
    decideDrill({ ...base, now: start + 2 * H, lastAny: start + H, lastDeep: start + H - 7 * DAY }),
    { run: true, kind: 'deep' },
    'the deep one is due between two daily ones',
  );
  assert.deepEqual(decideDrill({ ...base, now: start + DAY, lastAny: start, lastDeep: null, backupBusy: true }), { run: false, why: 'backup' });
  assert.deepEqual(decideDrill({ ...base, now: start + DAY, lastAny: start, lastDeep: null, paused: true }), { run: false, why: 'paused' });
});

test('first drill 5 minutes after start (deep: none yet), then daily every 24 h from the last completed, deep again after a week (simulated drills)', async () => {
  const h = harness();
  const s = h.scheduler();
  const t0 = h.clock.now();
  await s.start();
  assert.equal(h.runs.length, 0, 'nothing at start');
  assert.equal(s.nextRunAt(), t0 + 5 * MIN);
  h.clock.advance(5 * MIN - 1);
  await s.wake();
  assert.equal(h.runs.length, 0);
  h.clock.advance(1);
  await s.wake();
  assert.deepEqual(
    h.runs.map((r) => r.kind),
    ['deep'],
  );
  const finished = h.clock.now();
  assert.equal(s.nextRunAt(), finished + DAY, '24 h from the end of the last drill');

  for (let day = 1; day <= 6; day++) {
    h.clock.set(finished + day * DAY + (day - 1) * 2 * MIN - 1);
    await s.wake();
    assert.equal(h.runs.length, day, `day ${day}: not a moment early`);
    h.clock.advance(1);
    await s.wake();
    assert.equal(h.runs.length, day + 1, `day ${day}: one drill`);
  }
  // The deep drill keeps its own weekly clock: a week after the last deep one, not at a daily slot.
  assert.equal(s.nextDeepAt(), finished + 7 * DAY);
  assert.equal(s.nextRunAt(), finished + 7 * DAY, 'the deep one comes before the next daily');
  h.clock.set(finished + 7 * DAY - 1);
  await s.wake();
  assert.equal(h.runs.length, 7);
  h.clock.advance(1);
  await s.wake();
  const deepEnd = h.clock.now();
  assert.equal(s.nextRunAt(), deepEnd + DAY, 'a deep drill counts as the daily');
  assert.equal(s.nextDeepAt(), deepEnd + 7 * DAY);
  assert.deepEqual(
    h.runs.map((r) => r.kind),
    ['deep', 'daily', 'daily', 'daily', 'daily', 'daily', 'daily', 'deep'],
    'deep once the last deep is a week old',
  );
  await s.stop();
});

test('a daily drill run by hand does not move the deep one: a never-run deep drill stays due 5 minutes after start (simulated drills)', async () => {
  const h = harness();
  const s = h.scheduler();
  const t0 = h.clock.now();
  await s.start();
  assert.equal(s.nextDeepAt(), t0 + 5 * MIN);
  h.clock.advance(MIN);
  const manual = drillRow(h.db, { kind: 'daily', trigger: 'manual', startedAt: unixSeconds(h.clock) });
  h.clock.advance(MIN);
  manual.finish('PASS', [], unixSeconds(h.clock));
  assert.equal(s.nextDeepAt(), t0 + 5 * MIN, 'the deep drill is still due today');
  assert.equal(s.nextRunAt(), t0 + 5 * MIN);
  h.clock.set(t0 + 5 * MIN);
  await s.wake();
  assert.deepEqual(
    h.runs.map((r) => r.kind),
    ['deep'],
  );
  // And the other way: the deep one ran, so the next daily is a day after it, the next deep a week.
  assert.equal(s.nextRunAt(), h.clock.now() + DAY);
  assert.equal(s.nextDeepAt(), h.clock.now() + 7 * DAY);
  await s.stop();
});

test('restarts keep the cadence: the last completed drill is read from the store (simulated drills)', async () => {
  const h = harness();
  const first = h.scheduler();
  await first.start();
  h.clock.advance(5 * MIN);
  await first.wake();
  await first.stop();
  const finished = h.clock.now();
  assert.equal(h.runs.length, 1);

  // Restarted 10 h later: not 5 minutes after this start, but 24 h after the drill.
  h.clock.advance(10 * H);
  const second = h.scheduler();
  await second.start();
  assert.equal(second.nextRunAt(), finished + DAY);
  h.clock.advance(5 * MIN);
  await second.wake();
  assert.equal(h.runs.length, 1, 'the restart did not bring the drill forward');
  // Restarted again and again, every hour: the drill still comes at finished + 24 h, once.
  await second.stop();
  let current = second;
  while (h.clock.now() < finished + DAY + 30 * MIN) {
    h.clock.advance(H);
    current = h.scheduler();
    await current.start();
    h.clock.advance(5 * MIN);
    await current.wake();
    await current.stop();
  }
  assert.equal(h.runs.length, 2, 'frequent restarts did not push it away either');
  assert.equal(h.runs[1]?.kind, 'daily');
  assert.ok((h.runs[1]?.at ?? 0) >= finished + DAY);
});

test('never two at once, never during a backup, and another drill (the CLI) means try again later (simulated drills)', async () => {
  const h = harness();
  const s = h.scheduler();
  await s.start();
  h.clock.advance(5 * MIN);
  let release: () => void = () => undefined;
  h.gate.wait = new Promise<void>((r) => (release = r));
  const first = s.wake();
  await new Promise((r) => setImmediate(r));
  assert.ok(s.running);
  h.clock.advance(2 * DAY);
  await s.wake();
  await s.wake();
  assert.equal(h.runs.length, 1, 'due again, but one is still running');
  release();
  await first;
  h.gate.wait = null;
  assert.equal(h.state.maxConcurrent, 1);

  h.clock.advance(DAY);
  h.state.backupBusy = true;
  await s.wake();
  assert.equal(h.runs.length, 1, 'due, but a backup is running: it waits');
  h.state.backupBusy = false;
  h.state.otherDrill = true;
  await s.wake();
  assert.equal(h.runs.length, 1, 'another drill holds the lock');
  h.state.otherDrill = false;
  await s.wake();
  assert.equal(h.runs.length, 2, 'the next check runs it, without waiting another day');
  await s.stop();
});

test('paused: no drill and no next time; unpaused: the due drill runs (simulated drills)', async () => {
  const h = harness();
  h.state.paused = true;
  const s = h.scheduler();
  await s.start();
  h.clock.advance(3 * DAY);
  await s.wake();
  assert.equal(h.runs.length, 0);
  assert.equal(s.nextRunAt(), null);
  h.state.paused = false;
  await s.wake();
  assert.equal(h.runs.length, 1);
  await s.stop();
});
