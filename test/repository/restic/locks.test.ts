// Locks with the real restic: a SIGKILLed backup leaves a stale lock that makes an exclusive
// command report `locked` until `unlock` clears it; an aborted backup gets SIGINT and leaves no
// lock; and the password never appears in the spawned restic's argv.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { backup, forget, unlock, snapshots, ResticError } from '../../../src/repository/restic/index.js';
import { runningChildren } from '../../../src/process/spawn.js';
import { resticFixture, PASSWORD } from './fixture.js';

const policy = { keepHourly: 24, keepDaily: 30, keepWeekly: 8, keepMonthly: 12, groupBy: 'host,tags', tags: ['sanad'], prune: true } as const;

function resticChild(binaryPath: string): { pid: number; args: readonly string[] } | undefined {
  const c = runningChildren().find((r) => r.command === binaryPath && r.args.includes('backup'));
  return c?.pid !== undefined ? { pid: c.pid, args: c.args } : undefined;
}

test('a SIGKILLed backup leaves a stale lock: forget --prune reports locked, unlock clears it', async (t) => {
  const fx = await resticFixture();
  t.after(() => fx.cleanup());
  const repo = await fx.newRepo();
  const data = await fx.bigFile('big', 160);
  let killed = false;
  const run = backup(fx.rt, repo, [data], {
    tags: ['sanad'],
    host: 'h',
    progressPerSecond: 20,
    onProgress: (p) => {
      const child = resticChild(fx.rt.binary.path);
      if (!killed && p.bytes_done > 0 && child) {
        killed = true;
        process.kill(child.pid, 'SIGKILL');
      }
    },
  });
  await assert.rejects(run, (e: unknown) => e instanceof ResticError && e.kind === 'failed' && /killed by SIGKILL/.test(e.message));
  assert.ok(killed, 'the backup was killed mid-run');
  assert.equal((await fx.locks(repo)).length, 1, 'the killed backup left its lock');

  await assert.rejects(forget(fx.rt, repo, policy), (e: unknown) => e instanceof ResticError && e.kind === 'locked' && /unlock|stale lock/.test(e.message));
  await unlock(fx.rt, repo);
  assert.deepEqual(await fx.locks(repo), []);
  assert.deepEqual(await forget(fx.rt, repo, policy), { removed: [], kept: [], removedTimes: {} });
});

test('abort mid-backup: SIGINT, kind cancelled, no lock left; the password is never in argv', async (t) => {
  const fx = await resticFixture();
  t.after(() => fx.cleanup());
  const repo = await fx.newRepo();
  const data = await fx.bigFile('big', 160);
  const controller = new AbortController();
  let audited = false;
  const run = backup(fx.rt, repo, [data], {
    tags: ['sanad'],
    host: 'h',
    signal: controller.signal,
    progressPerSecond: 20,
    onProgress: (p) => {
      const child = resticChild(fx.rt.binary.path);
      if (audited || p.bytes_done === 0 || !child) return;
      audited = true;
      // What the kernel holds for the live restic process: its argv and its environment.
      const argv = readFileSync(`/proc/${child.pid}/cmdline`, 'utf8').split('\0');
      const environ = readFileSync(`/proc/${child.pid}/environ`, 'utf8').split('\0');
      assert.deepEqual(argv.slice(1, -1), [...child.args], 'the registry shows the real argv');
      assert.ok(!argv.some((a) => a.includes(PASSWORD)), 'no password in argv');
      assert.ok(environ.some((e) => e.startsWith('RESTIC_PASSWORD_FILE=')));
      assert.ok(!environ.some((e) => e.startsWith('RESTIC_PASSWORD=') || e.includes(PASSWORD)), 'no password in the environment either');
      controller.abort();
    },
  });
  await assert.rejects(run, (e: unknown) => e instanceof ResticError && e.kind === 'cancelled' && e.exitCode !== null);
  assert.ok(audited);
  assert.deepEqual(await fx.locks(repo), [], 'restic removed its lock on SIGINT');
  assert.deepEqual(await snapshots(fx.rt, repo), [], 'no snapshot from the cancelled run');
  assert.equal(runningChildren().length, 0);
});
