// Sleep and wake against a real core and real restic. With a moved clock: a backup slot missed
// while asleep runs exactly once on resume, not once per missed slot, and the cadence continues
// from it. During a backup: suspend interrupts restic cleanly (no lock left), the failure it causes
// notifies nobody, resume retries at once, and the retry's success clears it all.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { openAlerts } from '../../src/store/alerts.js';
import { ManualClock } from '../../src/clock.js';
import { silentLogger } from '../../src/log/logger.js';
import type { ServiceContext } from '../../src/service/context.js';
import { DesktopMonitor } from '../../electron/logic/desktop-monitor.js';
import { DesktopStateFile } from '../../electron/logic/desktop-state.js';
import type { Notice } from '../../electron/logic/notify-dedupe.js';
import { endsInterruption, resumeAction, SleepWake } from '../../electron/logic/sleep-wake.js';
import type { TrayState } from '../../electron/logic/tray-model.js';
import { waitFor } from '../harness/api.js';
import { startTestAppliance, type TestAppliance } from '../harness/appliance.js';
import { tempDir } from '../harness/data-dir.js';
import { localTarget } from '../drill/kit.js';
import { addBigModel, alive, resticUploading } from './desktop-kit.js';

const H = 3_600_000;
const DAY = 24 * H;
const open: TestAppliance[] = [];
after(async () => {
  for (const t of open) await t.close();
});

interface RunRow {
  id: number;
  trigger: string;
  status: string;
  started_at: number;
}
const runs = (ctx: ServiceContext): RunRow[] =>
  ctx.writer.prepare<[], RunRow>("SELECT id, trigger, status, started_at / 1000 AS started_at FROM runs WHERE kind = 'backup' ORDER BY id").all();
const idleWith = (ctx: ServiceContext, n: number) => (): boolean => runs(ctx).length === n && !ctx.backups.busy;
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

function sleepWakeFor(ctx: ServiceContext): { sw: SleepWake; state: DesktopStateFile } {
  const state = new DesktopStateFile(join(tempDir('sanad-userdata-'), 'desktop-state.json'));
  return { sw: new SleepWake({ backups: ctx.backups, drills: ctx.drills, record: state, logger: silentLogger }), state };
}

test('resume decisions: retry only an interrupted, unpaused backup; only a later run ends the hold', () => {
  assert.equal(resumeAction(null, false), 'catch-up');
  assert.equal(resumeAction(7, false), 'retry');
  assert.equal(resumeAction(7, true), 'catch-up');
  assert.equal(endsInterruption(7, 7), false, 'the interrupted run finishing (cancelled) is not an answer');
  assert.equal(endsInterruption(7, null), false, 'a run refused as busy has no id');
  assert.equal(endsInterruption(7, 8), true);
  assert.equal(endsInterruption(null, 8), false);
});

test('a schedule due during sleep runs exactly once on resume (moved clock), then keeps its cadence', async () => {
  const clock = new ManualClock(Date.parse('2026-03-02T08:00:00Z'));
  const t = await startTestAppliance({ clock, settings: { backup_paused: false, backup_interval_hours: 6 } });
  open.push(t);
  const ctx = t.appliance.ctx;
  // First start: no backup yet, so the schedule's own catch-up runs at once.
  await waitFor(idleWith(ctx, 1), 90_000, 'the first backup');
  const { sw, state } = sleepWakeFor(ctx);

  assert.equal(sw.suspend(), null, 'nothing to interrupt');
  clock.advance(3 * DAY + 17 * 60_000); // twelve 6-hour slots missed
  assert.equal(sw.resume(), 'catch-up');
  await waitFor(idleWith(ctx, 2), 90_000, 'the catch-up backup');
  // A flaky lid, the minute timer: more wakes at the same moment start nothing.
  sw.resume();
  sw.resume();
  await pause(300);
  assert.ok(idleWith(ctx, 2)(), JSON.stringify(runs(ctx)));
  const [first, caughtUp] = runs(ctx);
  assert.equal(first?.status, 'ok');
  assert.deepEqual([caughtUp?.trigger, caughtUp?.status], ['catch-up', 'ok']);
  assert.equal(caughtUp?.started_at, Math.floor(clock.now() / 1000), 'it ran at the resume');
  assert.equal(state.interrupted, null);

  // The cadence counts from the catch-up: nothing a minute early, one scheduled run on time.
  clock.advance(6 * H - 60_000);
  sw.resume();
  await pause(300);
  assert.ok(idleWith(ctx, 2)());
  clock.advance(60_000);
  sw.resume();
  await waitFor(idleWith(ctx, 3), 90_000, 'the next scheduled backup');
  assert.deepEqual(
    runs(ctx)
      .slice(2)
      .map((r) => [r.trigger, r.status]),
    [['schedule', 'ok']],
  );
});

test('suspend during a backup: restic interrupted cleanly, nobody notified, retried at once on resume', async () => {
  const t = await startTestAppliance({ settings: { backup_paused: false } });
  open.push(t);
  const ctx = t.appliance.ctx;
  await waitFor(idleWith(ctx, 1), 90_000, 'the first backup');
  await addBigModel(ctx);
  const { target, deps } = await localTarget(ctx);
  const { sw, state } = sleepWakeFor(ctx);
  const notices: Notice[] = [];
  const trayStates: TrayState[] = [];
  const monitor = new DesktopMonitor({
    core: ctx,
    state,
    sleepWake: sw,
    logger: silentLogger,
    openAtLogin: () => false,
    systemLocale: () => 'en-US',
    sinks: { tray: (m) => trayStates.push(m.state), notify: (n) => notices.push(n) },
  });
  monitor.start();
  try {
    const run = ctx.backups.run('manual');
    const child = await resticUploading(ctx);
    const interrupted = sw.suspend();
    const outcome = await run;
    assert.equal(interrupted, outcome.run_id);
    assert.equal(outcome.status, 'failed');
    assert.match(outcome.error ?? '', /was cancelled/);
    assert.ok(child.pid !== undefined && !alive(child.pid), 'restic exited');
    assert.deepEqual(await deps.restic.listLocks(target), [], 'restic removed its lock before the sleep');
    // The core recorded the failure; the shell holds its notification and does not paint it red.
    assert.ok(openAlerts(ctx.writer).some((a) => a.key === 'backup.failed'));
    monitor.refresh();
    assert.equal(state.interrupted, outcome.run_id);
    assert.deepEqual(notices, []);
    assert.equal(monitor.model?.state, 'warning');
    assert.ok(monitor.model?.lines.some((l) => /was interrupted/.test(l)));

    assert.equal(sw.resume(), 'retry', 'the interrupted backup runs again at once, not a whole interval later');
    await waitFor(idleWith(ctx, 3), 120_000, 'the retried backup');
    const retry = runs(ctx)[2];
    assert.deepEqual([retry?.trigger, retry?.status], ['resume', 'ok']);
    await waitFor(() => state.interrupted === null, 10_000, 'the hold to end');
    assert.equal(
      openAlerts(ctx.writer).some((a) => a.key === 'backup.failed'),
      false,
      'the retry resolved the failure',
    );
    monitor.refresh();
    assert.deepEqual(notices, [], "no notification at any point: the failure was the shell's own doing");
    assert.ok(trayStates.includes('running'));
    assert.ok(!trayStates.includes('failing'), trayStates.join(','));
  } finally {
    monitor.stop();
  }
});
