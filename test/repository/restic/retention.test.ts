// Retention with a moved clock: ~2 years of snapshots (hourly, daily, weekly, monthly), each of a
// different staging folder like real generations, then forget 24/30/8/12 grouped by host,tags with
// constant tags. What remains must be exactly what the policy keeps, and the rest must really go.
// Grouping by paths (restic's default, Kazma's bug) would have kept every single one.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { backup, forget, snapshots } from '../../../src/repository/restic/index.js';
import { runRestic } from '../../../src/repository/restic/run.js';
import { ManualClock } from '../../../src/clock.js';
import { resticFixture } from './fixture.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** Snapshot times, as a 6-hourly-then-thinning schedule would leave them, newest first. */
function scheduleTimes(clock: ManualClock): Date[] {
  const now = clock.now();
  const times: number[] = [];
  for (let h = 0; h < 28; h++) times.push(now - h * HOUR);
  for (let d = 2; d <= 36; d++) times.push(now - d * DAY);
  for (let w = 6; w <= 15; w++) times.push(now - w * 7 * DAY);
  for (let m = 5; m <= 24; m++) {
    const t = new Date(now);
    t.setUTCMonth(t.getUTCMonth() - m);
    times.push(t.getTime());
  }
  return times.map((t) => new Date(t));
}

function isoWeek(d: Date): number {
  const t = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()));
  const day = t.getUTCDay() || 7;
  t.setUTCDate(t.getUTCDate() + 4 - day);
  const yearStart = Date.UTC(t.getUTCFullYear(), 0, 1);
  return t.getUTCFullYear() * 100 + Math.ceil(((t.getTime() - yearStart) / DAY + 1) / 7);
}

/** An independent statement of restic's rule: newest first, each rule keeps the first snapshot of
 *  each new bucket until its count is used up. Returns the kept times (ms). */
function expectedKeep(times: Date[], counts: { hourly: number; daily: number; weekly: number; monthly: number }): Set<number> {
  const rules = [
    { left: counts.hourly, bucket: (d: Date) => d.toISOString().slice(0, 13), last: '' },
    { left: counts.daily, bucket: (d: Date) => d.toISOString().slice(0, 10), last: '' },
    { left: counts.weekly, bucket: (d: Date) => String(isoWeek(d)), last: '' },
    { left: counts.monthly, bucket: (d: Date) => d.toISOString().slice(0, 7), last: '' },
  ];
  const keep = new Set<number>();
  for (const t of [...times].sort((a, b) => b.getTime() - a.getTime())) {
    for (const rule of rules) {
      const b = rule.bucket(t);
      if (rule.left > 0 && b !== rule.last) {
        rule.last = b;
        rule.left--;
        keep.add(t.getTime());
      }
    }
  }
  // Every count used up: restic's "keep the oldest if a count is left" special case never applies.
  assert.ok(
    rules.every((r) => r.left === 0),
    'the schedule is long enough to exhaust every rule',
  );
  return keep;
}

async function pool<T>(items: T[], width: number, fn: (item: T, index: number) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++;
      const item = items[i];
      if (item !== undefined) await fn(item, i);
    }
  };
  await Promise.all(Array.from({ length: width }, worker));
}

test('forget 24/30/8/12 by host,tags over two years removes exactly what the policy says', async (t) => {
  const fx = await resticFixture();
  t.after(() => fx.cleanup());
  const repo = await fx.newRepo();
  const clock = new ManualClock(Date.parse('2026-06-30T12:00:00Z'));
  const times = scheduleTimes(clock);
  const tags = ['sanad', 'generation'];
  // restic backups share a non-exclusive lock, so generations can be written side by side.
  await pool(times, 3, async (time, i) => {
    const dir = await fx.dataDir(`staging/${Math.floor(time.getTime() / 1000)}`, { 'manifest.json': `{"generation":${i}}\n` });
    await backup(fx.rt, repo, [dir], { tags, host: 'sanad-host', time });
  });
  const before = await snapshots(fx.rt, repo, { tags });
  assert.equal(before.length, times.length);
  assert.equal(new Set(before.map((s) => s.paths.join())).size, times.length, 'every generation has its own path');

  // Kazma's grouping: by paths every snapshot is its own group, and nothing would ever go.
  const dry = await runRestic(fx.rt, repo, {
    args: [
      'forget',
      '--dry-run',
      '--keep-hourly=24',
      '--keep-daily=30',
      '--keep-weekly=8',
      '--keep-monthly=12',
      '--group-by=host,paths',
      '--tag=sanad,generation',
    ],
    json: false,
  });
  assert.ok(
    dry.stdoutTail.some((l) => /keep 1 snapshots/.test(l)) && !dry.stdoutTail.some((l) => /remove \d+ snapshots/.test(l)),
    'grouping by paths removes nothing',
  );

  const result = await forget(fx.rt, repo, { keepHourly: 24, keepDaily: 30, keepWeekly: 8, keepMonthly: 12, groupBy: 'host,tags', tags, prune: true });
  const expected = expectedKeep(times, { hourly: 24, daily: 30, weekly: 8, monthly: 12 });
  const after = await snapshots(fx.rt, repo, { tags });
  const keptTimes = new Set(after.map((s) => Date.parse(s.time)));

  assert.deepEqual(
    [...keptTimes].sort((a, b) => a - b),
    [...expected].sort((a, b) => a - b),
    'what stays is exactly what the policy keeps',
  );
  assert.equal(result.removed.length, times.length - expected.size);
  assert.equal(result.kept.length, after.length);
  const remaining = new Set(after.map((s) => s.id));
  assert.ok(
    result.removed.every((id) => !remaining.has(id)),
    'removed snapshots are really gone',
  );
  // Counted by period: the last 24 hours are all there, nothing older than 12 months + a month stays.
  const now = clock.now();
  assert.equal(after.filter((s) => now - Date.parse(s.time) < 24 * HOUR).length, 24);
  assert.equal(after.filter((s) => now - Date.parse(s.time) > 396 * DAY).length, 0);
  assert.ok(after.length <= 24 + 30 + 8 + 12);
  assert.ok(result.removed.length >= 20, `old snapshots go (${result.removed.length} removed of ${times.length})`);
});
