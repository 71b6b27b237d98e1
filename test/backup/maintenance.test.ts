// Maintenance with the real restic: a clean run logs `maintenance ok: <repo>` and records its time;
// a real stale lock (a SIGKILLed backup) is cleared; a failing run records the failure and raises an
// alert the next clean run resolves; and the retention policy really removes old snapshots.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openAlerts } from '../../src/store/alerts.js';
import { alertKey, maintenanceDue, maintenanceRecord, runMaintenance } from '../../src/backup/maintenance.js';
import { previewRetention, RETENTION_TAGS } from '../../src/backup/retention.js';
import { writeSettings } from '../../src/store/settings.js';
import { createRestic, ResticError, type ResticRepo } from '../../src/repository/restic/index.js';
import { ManualClock } from '../../src/clock.js';
import { createLogger, type Logger } from '../../src/log/logger.js';
import { runningChildren } from '../../src/process/spawn.js';
import { openStore, type Db } from '../../src/store/open.js';
import { resticFixture, type ResticFixture } from '../repository/restic/fixture.js';

const H = 3_600_000;

interface Setup {
  fx: ResticFixture;
  db: Db;
  clock: ManualClock;
  logger: Logger;
  lines: Array<{ level: string; msg: string }>;
}

async function setup(t: { after: (fn: () => unknown) => void }): Promise<Setup> {
  const fx = await resticFixture();
  const db = openStore(':memory:');
  t.after(async () => {
    db.close();
    await fx.cleanup();
  });
  const lines: Setup['lines'] = [];
  const logger = createLogger({ sink: (line) => lines.push(logEntry(line)) });
  return { fx, db, clock: new ManualClock(Date.parse('2026-06-15T12:30:00Z')), logger, lines };
}

/** Level and message of one of the logger's JSON lines. */
function logEntry(line: string): { level: string; msg: string } {
  const v: unknown = JSON.parse(line);
  if (typeof v === 'object' && v !== null && 'level' in v && 'msg' in v && typeof v.level === 'string' && typeof v.msg === 'string') {
    return { level: v.level, msg: v.msg };
  }
  throw new Error(`not a log line: ${line}`);
}

async function oneBackup(s: Setup, repo: ResticRepo, time?: Date): Promise<void> {
  const dir = await s.fx.dataDir(`gen-${time?.getTime() ?? 'now'}`, { 'manifest.json': '{}\n' });
  await createRestic(s.fx.rt).backup(repo, [dir], { tags: RETENTION_TAGS, host: 'h', time });
}

test('a clean run logs "maintenance ok: <repo>" and records the time; due again a day later', async (t) => {
  const s = await setup(t);
  const repo = await s.fx.newRepo('local');
  await oneBackup(s, repo);
  assert.equal(maintenanceDue(s.db, s.clock, 'local'), true, 'never ran: due');
  assert.deepEqual(maintenanceRecord(s.db, 'local'), { okAt: null, failedAt: null });

  const result = await runMaintenance(createRestic(s.fx.rt), repo, { logger: s.logger, db: s.db, clock: s.clock });
  assert.deepEqual(result, { ok: true, removed: 0, kept: 1 });
  assert.deepEqual(
    s.lines.filter((l) => l.msg.startsWith('maintenance')).map((l) => [l.level, l.msg]),
    [['info', 'maintenance ok: local (forget --prune, check)']],
  );
  assert.deepEqual(maintenanceRecord(s.db, 'local'), { okAt: s.clock.now() / 1000, failedAt: null });
  assert.equal(maintenanceDue(s.db, s.clock, 'local'), false);
  assert.equal(maintenanceDue(s.db, s.clock, 'local', undefined, true), false, 'a clean record is not hurried by a backup');
  s.clock.advance(24 * H - 1000);
  assert.equal(maintenanceDue(s.db, s.clock, 'local'), false);
  s.clock.advance(1000);
  assert.equal(maintenanceDue(s.db, s.clock, 'local'), true);
});

test('a stale lock from a SIGKILLed backup is cleared and maintenance succeeds', async (t) => {
  const s = await setup(t);
  const repo = await s.fx.newRepo('local');
  await oneBackup(s, repo);
  const data = await s.fx.bigFile('big', 160);
  let killed = false;
  const run = createRestic(s.fx.rt).backup(repo, [data], {
    tags: RETENTION_TAGS,
    host: 'h',
    progressPerSecond: 20,
    onProgress: (p) => {
      const child = runningChildren().find((c) => c.command === s.fx.rt.binary.path && c.args.includes('backup'));
      if (!killed && p.bytes_done > 0 && child?.pid !== undefined) {
        killed = true;
        process.kill(child.pid, 'SIGKILL');
      }
    },
  });
  await assert.rejects(run, (e: unknown) => e instanceof ResticError && /SIGKILL/.test(e.message));
  assert.equal((await s.fx.locks(repo)).length, 1, 'the killed backup left a real lock');

  const result = await runMaintenance(createRestic(s.fx.rt), repo, { logger: s.logger, db: s.db, clock: s.clock });
  assert.equal(result.ok, true, JSON.stringify(result));
  assert.deepEqual(await s.fx.locks(repo), []);
  assert.ok(s.lines.some((l) => l.msg === 'maintenance ok: local (forget --prune, check)'));
  assert.deepEqual(openAlerts(s.db), []);
});

test('a failing run records the failure and raises the alert; the next clean run resolves it', async (t) => {
  const s = await setup(t);
  const repo = await s.fx.newRepo('nas');
  await oneBackup(s, repo);
  const restic = createRestic(s.fx.rt);

  const failed = await runMaintenance(restic, { ...repo, password: 'not-the-passphrase' }, { logger: s.logger, db: s.db, clock: s.clock });
  assert.equal(failed.ok, false);
  assert.ok(!failed.ok && failed.outcome === 'failed' && failed.step === 'unlock' && /passphrase/.test(failed.reason), JSON.stringify(failed));
  const warn = s.lines.find((l) => l.level === 'warn');
  assert.match(warn?.msg ?? '', /^maintenance failed: nas \(unlock\): The passphrase for the repository "nas" was refused/);
  assert.ok(!s.lines.some((l) => l.msg.startsWith('maintenance ok')), 'no ok line for a failed run');
  assert.deepEqual(maintenanceRecord(s.db, 'nas'), { okAt: null, failedAt: s.clock.now() / 1000 });
  assert.deepEqual(
    openAlerts(s.db).map((a) => [a.key, a.severity]),
    [[alertKey('nas'), 'warning']],
  );
  assert.equal(maintenanceDue(s.db, s.clock, 'nas'), false, 'a failure waits a period too');
  assert.equal(maintenanceDue(s.db, s.clock, 'nas', undefined, true), true, 'unless a backup just reached the repository again');

  s.clock.advance(24 * H);
  assert.equal(maintenanceDue(s.db, s.clock, 'nas'), true);
  const ok = await runMaintenance(restic, repo, { logger: s.logger, db: s.db, clock: s.clock });
  assert.equal(ok.ok, true);
  assert.deepEqual(openAlerts(s.db), [], 'the clean run resolved the alert');
  const record = maintenanceRecord(s.db, 'nas');
  assert.equal(record.okAt, s.clock.now() / 1000);
  assert.ok(record.failedAt !== null && record.failedAt < record.okAt, 'the failure stays on record, older than the success');
});

test('old snapshots really go under the policy', async (t) => {
  const s = await setup(t);
  const repo = await s.fx.newRepo('local');
  const now = s.clock.now();
  // Five in the current hour, then one a month for 30 months (15th, 12:30 UTC: no month or day
  // boundary trouble). Policy 24h/30d/8w/12m over distinct buckets, newest first:
  //  - the current hour's newest is kept, its four older siblings share every bucket: removed;
  //  - hourly keeps that one plus months 1..23 (24 distinct hours), daily reaches months 24..29
  //    (30 distinct days); weekly and monthly add nothing older; month 30 goes.
  const times: Date[] = [];
  for (let m = 0; m < 5; m++) times.push(new Date(now - m * 60_000));
  for (let k = 1; k <= 30; k++) {
    const d = new Date(now);
    d.setUTCMonth(d.getUTCMonth() - k);
    times.push(d);
  }
  // restic backups share a non-exclusive lock, so a few can be written side by side.
  for (let i = 0; i < times.length; i += 4) await Promise.all(times.slice(i, i + 4).map((time) => oneBackup(s, repo, time)));
  const restic = createRestic(s.fx.rt);
  assert.equal((await restic.snapshots(repo)).length, 35);

  const result = await runMaintenance(restic, repo, { logger: s.logger, db: s.db, clock: s.clock });
  assert.deepEqual(result, { ok: true, removed: 5, kept: 30 });
  const after = (await restic.snapshots(repo)).map((x) => Date.parse(x.time)).sort((a, b) => b - a);
  assert.equal(after.length, 30);
  assert.equal(after[0], now, 'the newest stays');
  assert.ok(!after.some((t) => t > now - H && t < now), "the current hour's older snapshots went");
  assert.equal(after.at(-1), times[times.length - 2]!.getTime(), 'the oldest (30 months) went; 29 months is the oldest left');
});

test('a retention change is previewed, then applied: what goes is exactly what the preview named', async (t) => {
  const s = await setup(t);
  const repo = await s.fx.newRepo('local');
  const now = s.clock.now();
  // One a day for ten days (12:30 UTC each).
  const times = Array.from({ length: 10 }, (_, d) => new Date(now - d * 24 * H));
  for (let i = 0; i < times.length; i += 4) await Promise.all(times.slice(i, i + 4).map((time) => oneBackup(s, repo, time)));
  const restic = createRestic(s.fx.rt);
  const before = new Set((await restic.snapshots(repo)).map((x) => x.id));
  assert.equal(before.size, 10);

  // The person proposes keeping 3 daily and nothing else: the preview names the 7 oldest, changes nothing.
  const proposed = { retention_keep_hourly: 0, retention_keep_daily: 3, retention_keep_weekly: 0, retention_keep_monthly: 0 };
  const preview = await previewRetention(restic, repo, proposed);
  assert.equal(preview.remove.length, 7);
  assert.equal(preview.keep, 3);
  assert.deepEqual(
    preview.remove.map((r) => Date.parse(r.time)),
    times
      .slice(3)
      .map((d) => d.getTime())
      .sort((a, b) => a - b),
    'the seven oldest days, oldest first',
  );
  assert.equal((await restic.snapshots(repo)).length, 10, 'a preview removes nothing');

  // Saved and applied by maintenance: the snapshots gone are exactly the ones previewed.
  writeSettings(s.db, proposed, Math.floor(now / 1000));
  const result = await runMaintenance(restic, repo, { logger: s.logger, db: s.db, clock: s.clock });
  assert.deepEqual(result, { ok: true, removed: 7, kept: 3 });
  const left = new Set((await restic.snapshots(repo)).map((x) => x.id));
  const gone = [...before].filter((id) => !left.has(id)).sort();
  assert.deepEqual(gone, preview.remove.map((r) => r.snapshot_id).sort());
});
