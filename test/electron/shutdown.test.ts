// Quit during a backup, through the same calls main.ts makes (startCore, SleepWake, shutdownCore),
// with the real restic: restic gets SIGINT, cleans up (its exit code 130 and its "signal interrupt"
// line), exits well before any SIGKILL, and leaves no lock in the repository; the run is recorded as
// interrupted so the next launch retries it; the data dir is free for the next start.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { openStore } from '../../src/store/open.js';
import { DesktopStateFile } from '../../electron/logic/desktop-state.js';
import { startCore, type Core } from '../../electron/logic/core-host.js';
import { shutdownCore } from '../../electron/logic/shutdown.js';
import { SleepWake } from '../../electron/logic/sleep-wake.js';
import { prepareDataDir, tempDir } from '../harness/data-dir.js';
import { localTarget } from '../drill/kit.js';
import { addBigModel, alive, recordingLogger, resticUploading } from './desktop-kit.js';
import { storePath } from '../../src/files/data-dir-layout.js';

let core: Core | null = null;
after(async () => core?.appliance.close());

test('Quit during a backup: restic is interrupted with SIGINT, exits, and the repository is not left locked', async (t) => {
  process.env.SANAD_THREADS ??= '1';
  process.env.SANAD_GPU ??= 'off';
  const { dataDir } = await prepareDataDir();
  const { logger, entries } = recordingLogger();
  core = await startCore({ dataDir, logger });
  const ctx = core.appliance.ctx;
  await addBigModel(ctx);
  const { target, deps } = await localTarget(ctx);

  const run = ctx.backups.run('manual');
  const child = await resticUploading(ctx);
  assert.ok(child.pid !== undefined);
  // Freeze restic while its lock is looked at: on a loaded machine the 160 MiB upload can finish
  // while a second restic starts up to list locks, and the test would then prove nothing.
  process.kill(child.pid, 'SIGSTOP');
  try {
    assert.ok((await deps.restic.listLocks(target)).length >= 1, 'restic holds a lock while it uploads');
  } finally {
    process.kill(child.pid, 'SIGCONT');
  }

  const statePath = join(tempDir('sanad-userdata-'), 'desktop-state.json');
  const state = new DesktopStateFile(statePath);
  const sleepWake = new SleepWake({ backups: ctx.backups, drills: ctx.drills, record: state, logger });
  const graceMs = 30_000;
  const report = await shutdownCore(core.appliance, { interruptBackup: () => sleepWake.interruptBackup('quit'), logger, graceMs });
  core = null;

  t.diagnostic(`shutdown took ${report.ms} ms with restic uploading`);
  assert.equal(report.timedOut, false);
  assert.ok(
    report.children.some((c) => c.pid === child.pid),
    'the running restic was among the children stopped',
  );
  assert.ok(report.ms < graceMs, `stopped in ${report.ms} ms, before any SIGKILL could be sent`);
  assert.equal(alive(child.pid), false, 'restic has exited');
  // restic handled the SIGINT itself: it said it was cleaning up and exited on its own (a SIGKILL
  // would show as the exit signal). The logger redacts `code` fields, so the exit code is not here.
  const exit = entries().find((e) => e.msg === 'child exit' && e.pid === child.pid);
  assert.ok(exit, 'the restic child was seen exiting');
  assert.equal(exit.signal, null, 'restic exited by itself, not killed by a signal');
  // (The first backup of a new repository fails with no_repo before `init`: the last one is ours.)
  const failed = entries()
    .filter((e) => e.msg === 'restic failed' && e.command === 'backup')
    .at(-1);
  assert.ok(failed, 'the interrupted restic run was logged');
  assert.equal(failed.kind, 'cancelled');
  assert.ok(
    Array.isArray(failed.stderrTail) && failed.stderrTail.some((l) => typeof l === 'string' && /signal interrupt received, cleaning up/.test(l)),
    JSON.stringify(failed.stderrTail),
  );

  const outcome = await run;
  assert.equal(outcome.status, 'failed');
  assert.match(outcome.error ?? '', /was cancelled/);
  assert.deepEqual(await deps.restic.listLocks(target), [], 'no lock left in the repository');

  // The interrupted run is remembered across the restart, so the next launch retries it.
  assert.equal(report.interruptedRun, outcome.run_id);
  assert.equal(new DesktopStateFile(statePath).interrupted, outcome.run_id);
  // The store was closed cleanly and the data dir is free: the next launch starts.
  const db = openStore(storePath(dataDir));
  try {
    const row = db.prepare<[number], { status: string }>("SELECT status FROM runs WHERE kind = 'backup' AND id = ?").get(outcome.run_id);
    assert.equal(row?.status, 'interrupted', 'the one record says Sanad stopped it, not that it failed');
  } finally {
    db.close();
  }
  core = await startCore({ dataDir, logger });
  await core.appliance.close();
  core = null;
});
