// What a drill calls UNVERIFIED (exit 2 through the CLI): no evidence of damage, but no proof either.
// restic missing; the repository locked by a live restic backup (a real backup of a big file, frozen
// mid-upload with SIGSTOP so its lock stays fresh and its process alive); a backup running on this
// data dir (its backup lock held); another drill running. Once they are gone, the same drill passes.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { openAlerts } from '../../src/store/alerts.js';
import { runningChildren } from '../../src/process/spawn.js';
import { tryFileLock } from '../../src/store/file-lock.js';
import { waitFor } from '../harness/api.js';
import { runSanad } from '../harness/run-sanad.js';
import { startTestAppliance, type TestAppliance } from '../harness/appliance.js';
import { tempDir } from '../harness/data-dir.js';
import { backupNow, drillCli, localTarget } from './kit.js';

let t: TestAppliance | null = null;
after(async () => t?.close());

test('UNVERIFIED: restic missing, a live restic lock, a backup running here; then PASS', async () => {
  t = await startTestAppliance();
  const { ctx } = t.appliance;
  await backupNow(ctx);

  const missing = await drillCli(t.dataDir, [], { SANAD_RESTIC: '/nonexistent/restic' });
  assert.equal(missing.ran.code, 2, missing.ran.stdout);
  assert.equal(missing.verdict, 'UNVERIFIED');
  assert.equal(missing.status('local:repo:open'), 'unverified');
  assert.match(missing.detail('local:repo:open'), /restic is not installed at the configured path/);
  assert.ok(missing.checks.slice(1).every((c) => c.status === 'unverified' && c.detail.startsWith('not run')));
  assert.ok(
    openAlerts(ctx.writer).some((a) => a.key === 'drill.unverified' && a.severity === 'warning'),
    'UNVERIFIED raises a warning',
  );

  // A real restic backup into the local repository, frozen once it is uploading.
  const { target, deps } = await localTarget(ctx);
  const data = join(tempDir(), 'big');
  mkdirSync(data);
  writeFileSync(join(data, 'big.bin'), randomBytes(96 * 1024 * 1024));
  let frozen: number | null = null;
  const running = deps.restic.backup(target, [data], {
    tags: ['not-sanad'],
    host: hostname(),
    progressPerSecond: 20,
    onProgress: (p) => {
      const child = runningChildren().find((c) => c.args.includes('backup'));
      if (frozen !== null || p.bytes_done === 0 || child?.pid === undefined) return;
      frozen = child.pid;
      process.kill(child.pid, 'SIGSTOP');
    },
  });
  try {
    const pid = await waitFor(() => frozen ?? undefined, 60_000, 'the backup to be uploading');
    const locked = await drillCli(t.dataDir);
    assert.equal(locked.ran.code, 2, locked.ran.stdout);
    assert.equal(locked.status('local:repo:open'), 'pass');
    assert.equal(locked.status('local:repo:lock'), 'unverified');
    assert.match(locked.detail('local:repo:lock'), new RegExp(`in use by a live restic process \\(a lock of .*${hostname()}, pid ${pid},`));
    assert.ok(locked.checks.slice(2).every((c) => c.detail.startsWith('not run: the repository is in use')));
  } finally {
    if (frozen !== null) process.kill(frozen, 'SIGCONT');
  }
  await running;

  // The backup lock of this data dir held, as a running `sanad backup now` holds it.
  const lock = tryFileLock(join(t.dataDir, 'backups', 'backup.lock'));
  assert.ok(lock);
  try {
    const busy = await drillCli(t.dataDir);
    assert.equal(busy.ran.code, 2, busy.ran.stdout);
    assert.match(busy.detail('local:repo:lock'), /A backup is running on this data dir/);
  } finally {
    lock.release();
  }

  // Another drill (a `sanad drill` beside this one, or the service's) holds the drill lock.
  const drilling = tryFileLock(join(t.dataDir, 'drills', 'drill.lock'));
  assert.ok(drilling);
  try {
    const second = await drillCli(t.dataDir);
    assert.equal(second.ran.code, 2, second.ran.stdout);
    assert.deepEqual(
      second.checks.map((c) => [c.name, c.status]),
      [['drill', 'unverified']],
    );
    assert.match(second.detail('drill'), /A drill is already running on this data dir/);
  } finally {
    drilling.release();
  }

  const clear = await drillCli(t.dataDir);
  assert.equal(clear.ran.code, 0, clear.ran.stdout);
  assert.equal(clear.detail('local:repo:lock'), 'no lock held');
  assert.ok(!openAlerts(ctx.writer).some((a) => a.key === 'drill.unverified'), 'the pass cleared the warning');
});

test('a wrong command line is exit 2 too (the CLI convention), with a sentence and no verdict', async () => {
  const dir = tempDir();
  for (const [args, said] of [
    [['--bogus'], /Unknown option '--bogus'/],
    [['extra'], /Unexpected argument "extra"/],
    [['--repo', 'nope'], /no repository named "nope"/],
  ] as const) {
    const ran = await runSanad(['drill', '--data-dir', dir, '--json', ...args]);
    assert.equal(ran.code, 2, ran.stderr);
    assert.match(ran.stderr, said);
    assert.equal(ran.stdout, '', 'a usage error prints no verdict');
  }
});
