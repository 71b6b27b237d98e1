// The job owner (src/jobs/jobs.ts) with its real rules (job-table.ts): jobs here are plain promises
// the test opens and closes, plus real child processes, so every wait, refusal and stop is observed
// as it happens rather than assumed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { ManualClock } from '../../src/clock.js';
import { JOB_KINDS, OVERLAP, overlap } from '../../src/jobs/job-table.js';
import { JobCancelledError, JobRefusedError, Jobs, JobsStoppedError, type JobControl } from '../../src/jobs/jobs.js';
import { silentLogger } from '../../src/log/logger.js';
import { runChild, runningChildren } from '../../src/process/spawn.js';
import { waitFor } from '../harness/api.js';

const jobsOwner = (): Jobs => new Jobs({ clock: new ManualClock(Date.parse('2026-12-01T00:00:00Z')), logger: silentLogger });

/** A job that runs until `finish()` (or until its signal aborts), recording when it really started. */
function gated(): { work: (c: JobControl<unknown>) => Promise<string>; started: () => boolean; finish: () => void } {
  let started = false;
  let finish: () => void = () => undefined;
  const gate = new Promise<void>((resolve) => (finish = resolve));
  return {
    started: () => started,
    finish: () => finish(),
    work: async (control) => {
      started = true;
      await new Promise<void>((resolve) => {
        void gate.then(resolve);
        control.signal.addEventListener('abort', () => resolve(), { once: true });
      });
      return control.signal.aborted ? 'aborted' : 'done';
    },
  };
}

const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

test('the table: every kind but pull and backup refuses a second of itself (those queue), and says something about every other kind', () => {
  for (const kind of JOB_KINDS) {
    assert.equal(overlap(kind, kind), kind === 'pull' || kind === 'backup' ? 'wait' : 'refuse', kind);
    assert.deepEqual(Object.keys(OVERLAP[kind]).sort(), [...JOB_KINDS].sort(), `${kind} has a rule for every kind`);
  }
  // The pairs this issue names, read straight from the table.
  assert.equal(overlap('backup', 'restore'), 'wait');
  assert.equal(overlap('restore', 'backup'), 'wait');
  assert.equal(overlap('drill', 'backup'), 'wait');
  assert.equal(overlap('backup', 'maintenance'), 'wait');
});

test('a backup and a restore never overlap: whichever comes second waits, then starts by itself', async () => {
  const jobs = jobsOwner();
  const backup = gated();
  const restore = gated();
  const b = jobs.start('backup', backup.work);
  const r = jobs.start('restore', restore.work);
  await tick();
  assert.equal(backup.started(), true);
  assert.equal(restore.started(), false, 'the restore waits while the backup runs');
  assert.equal(r.state, 'waiting');
  assert.deepEqual(jobs.blockers(r), ['backup']);
  backup.finish();
  assert.equal(await b.done, 'done');
  await waitFor(() => restore.started(), 2000, 'the restore to start after the backup');
  assert.equal(r.state, 'running');
  // And the other way round: a backup asked for during the restore waits for it.
  const later = gated();
  const b2 = jobs.start('backup', later.work);
  await tick();
  assert.equal(later.started(), false, 'the backup waits while the restore runs');
  restore.finish();
  assert.equal(await r.done, 'done');
  await waitFor(() => later.started(), 2000, 'the backup to start after the restore');
  later.finish();
  assert.equal(await b2.done, 'done');
});

test('a drill waits for a backup, and for maintenance; a second drill is refused, naming the first', async () => {
  const jobs = jobsOwner();
  const backup = gated();
  const drill = gated();
  jobs.start('backup', backup.work);
  const d = jobs.start('drill', drill.work);
  assert.throws(
    () => jobs.start('drill', async () => 'second'),
    (e: unknown) => e instanceof JobRefusedError && e.blocking === 'drill' && /already running/.test(e.message),
  );
  await tick();
  assert.equal(drill.started(), false, 'the drill waits while the backup runs');
  // Maintenance asked for while the backup still runs waits too, behind the drill that was asked
  // for first: a waiting job is not overtaken by a later one the table keeps apart from it.
  const maintenance = gated();
  const m = jobs.start('maintenance', maintenance.work);
  backup.finish();
  await waitFor(() => drill.started(), 2000, 'the drill once the backup ended');
  await tick();
  assert.equal(maintenance.started(), false, 'maintenance waits for the drill');
  assert.deepEqual(
    jobs.list().map((j) => [j.kind, j.state]),
    [
      ['drill', 'running'],
      ['maintenance', 'waiting'],
    ],
  );
  drill.finish();
  assert.equal(await d.done, 'done');
  await waitFor(() => maintenance.started(), 2000, 'maintenance after the drill');
  // A drill asked for during maintenance waits for it.
  const second = gated();
  const d2 = jobs.start('drill', second.work);
  await tick();
  assert.equal(second.started(), false, 'the drill waits while maintenance runs');
  maintenance.finish();
  await m.done;
  await waitFor(() => second.started(), 2000, 'the drill after maintenance');
  second.finish();
  assert.equal(await d2.done, 'done');
});

test('a drill and a restore run together: both only read', async () => {
  const jobs = jobsOwner();
  const drill = gated();
  const restore = gated();
  jobs.start('drill', drill.work);
  jobs.start('restore', restore.work);
  await tick();
  assert.equal(drill.started() && restore.started(), true);
  drill.finish();
  restore.finish();
});

test('stop aborts exactly the jobs this owner started and waits for them; other children live on', async () => {
  const mine = jobsOwner();
  const other = jobsOwner();
  // A child of this owner's job (restic stands in as `sleep`: it too ends on SIGINT).
  const job = mine.start('backup', (control) => runChild({ command: 'sleep', args: ['300'], env: {}, signal: control.signal }));
  // A job of another owner (another appliance) and a child no job started (a CLI's).
  const theirs = gated();
  const theirJob = other.start('backup', theirs.work);
  const stray = spawn('sleep', ['300'], { stdio: 'ignore' });
  try {
    await waitFor(() => runningChildren().find((c) => c.command === 'sleep'), 5000, 'the job child to start');
    const waiting = mine.start('restore', async () => 'never');
    await mine.stop(5000);
    const result = await job.done;
    assert.equal(result.signal, 'SIGINT', 'the job child got SIGINT and ended');
    await assert.rejects(waiting.done, JobCancelledError, 'a waiting job never starts');
    assert.throws(() => mine.start('drill', async () => 'late'), JobsStoppedError);
    assert.equal(theirs.started(), true);
    assert.equal(theirJob.state, 'running', "the other owner's job was not touched");
    assert.equal(stray.exitCode, null, 'a child no job started is not touched');
    assert.equal(stray.signalCode, null);
  } finally {
    theirs.finish();
    stray.kill('SIGKILL');
  }
});

test("a waiting job cancelled by its caller's signal never starts, and the queue moves on", async () => {
  const jobs = jobsOwner();
  const backup = gated();
  jobs.start('backup', backup.work);
  const caller = new AbortController();
  const r = jobs.start('restore', async () => 'restored', { signal: caller.signal });
  caller.abort();
  await assert.rejects(r.done, JobCancelledError);
  assert.deepEqual(
    jobs.list().map((j) => j.kind),
    ['backup'],
  );
  backup.finish();
});
