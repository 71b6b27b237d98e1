// The schedule at a time of day and the holds for battery and metered connections. Local time is
// Europe/Berlin here (set before any date is made), so a daylight-saving day is in reach: on
// 2026-03-29 the clocks go from 02:00 to 03:00 and the day has 23 hours.
process.env.TZ = 'Europe/Berlin';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decideDaily, lastDailySlot, nextDailySlot, BackupScheduler, type HeldBy, type RunTrigger } from '../../../src/backup/schedule.js';
import { ManualClock } from '../../../src/clock.js';
import { silentLogger } from '../../../src/log/logger.js';

const H = 3_600_000;
const at = (iso: string): number => Date.parse(iso);

test('a daily slot: due once its time has passed, a catch-up after sleep, nothing after a run since the slot', () => {
  const yesterdayRun = at('2026-06-10T03:00:00+02:00');
  assert.equal(decideDaily(at('2026-06-11T02:29:00+02:00'), yesterdayRun, '02:30', false, false), 'none', 'before the slot');
  assert.equal(decideDaily(at('2026-06-11T02:31:00+02:00'), yesterdayRun, '02:30', false, false), 'due');
  assert.equal(decideDaily(at('2026-06-11T09:00:00+02:00'), yesterdayRun, '02:30', false, false), 'catch-up', 'asleep at 02:30: one run on wake');
  assert.equal(decideDaily(at('2026-06-14T09:00:00+02:00'), yesterdayRun, '02:30', false, false), 'catch-up', 'three missed days are one run');
  assert.equal(
    decideDaily(at('2026-06-11T09:00:00+02:00'), at('2026-06-11T02:40:00+02:00'), '02:30', false, false),
    'none',
    'a run since the slot counts for it',
  );
  assert.equal(decideDaily(at('2026-06-11T02:31:00+02:00'), yesterdayRun, '02:30', false, true), 'none', 'paused');
  assert.equal(decideDaily(at('2026-06-11T02:31:00+02:00'), null, '02:30', false, false), 'catch-up', 'never ran: the first backup at once');
});

test('daily slots are local times: the 23-hour day of the spring change keeps 12:00 at 12:00', () => {
  assert.equal(lastDailySlot(at('2026-03-28T15:00:00+01:00'), '12:00'), at('2026-03-28T12:00:00+01:00'));
  const next = nextDailySlot(at('2026-03-28T15:00:00+01:00'), '12:00');
  assert.equal(next, at('2026-03-29T12:00:00+02:00'), 'noon in summer time the next day');
  assert.equal(next - lastDailySlot(at('2026-03-28T15:00:00+01:00'), '12:00'), 23 * H);
  assert.equal(nextDailySlot(at('2026-06-11T01:00:00+02:00'), '02:30'), at('2026-06-11T02:30:00+02:00'), 'later the same day');
});

function harness(options: { timeOfDay: string | null; held: { now: HeldBy | null }; lastRunAt: number }) {
  const clock = new ManualClock(at('2026-06-11T02:00:00+02:00'));
  const runs: Array<{ trigger: RunTrigger; at: number }> = [];
  const state = { lastRunAt: options.lastRunAt };
  const scheduler = new BackupScheduler({
    clock,
    intervalMs: () => 6 * H,
    timeOfDay: () => options.timeOfDay,
    held: async () => options.held.now,
    paused: () => false,
    lastRunAt: () => state.lastRunAt,
    logger: silentLogger,
    tickMs: H,
    run: async (trigger) => {
      state.lastRunAt = clock.now();
      runs.push({ trigger, at: clock.now() });
    },
  });
  return { clock, scheduler, runs };
}

test('the scheduler runs once a day at the time set, and says when the next one is', async () => {
  const held = { now: null };
  const h = harness({ timeOfDay: '02:30', held, lastRunAt: at('2026-06-10T02:31:00+02:00') });
  await h.scheduler.start();
  assert.equal(h.runs.length, 0, "02:00: today's slot is still ahead");
  assert.equal(h.scheduler.nextRunAt(), at('2026-06-11T02:30:00+02:00'));
  h.clock.advance(31 * 60_000);
  await h.scheduler.wake();
  assert.deepEqual(
    h.runs.map((r) => r.trigger),
    ['schedule'],
  );
  h.clock.advance(12 * H);
  await h.scheduler.wake();
  assert.equal(h.runs.length, 1, 'one a day, not one an interval');
  assert.equal(h.scheduler.nextRunAt(), at('2026-06-12T02:30:00+02:00'));
  await h.scheduler.stop();
});

test('a due backup is held on battery, says why, and runs at the first check after the power is back', async () => {
  const held: { now: HeldBy | null } = { now: 'battery' };
  const h = harness({ timeOfDay: null, held, lastRunAt: at('2026-06-10T18:00:00+02:00') });
  await h.scheduler.start();
  assert.equal(h.runs.length, 0);
  assert.equal(h.scheduler.heldBy, 'battery');
  assert.equal(h.scheduler.nextRunAt(), h.clock.now(), 'still due');
  held.now = 'metered';
  await h.scheduler.wake();
  assert.equal(h.scheduler.heldBy, 'metered');
  held.now = null;
  await h.scheduler.wake();
  assert.equal(h.runs.length, 1);
  assert.equal(h.scheduler.heldBy, null);
  await h.scheduler.stop();
});
