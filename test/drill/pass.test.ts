// A healthy backup passes the daily and the deep drill through the real CLI (exit 0), and neither
// drill writes to the repository: every file and folder of it (size, mtime, mode, sha256) is the same
// before and after, so not even a lock file came and went (a locking `restic check` run as a
// control does change it). Scratch dirs are gone afterwards, and
// both runs are stored where the GUI reads them.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { getRepository } from '../../src/repository/repositories.js';
import { listDrillRuns } from '../../src/drill/drill-runs.js';
import { startTestAppliance, type TestAppliance } from '../harness/appliance.js';
import { backupNow, drillCli, fingerprint, localTarget } from './kit.js';

let t: TestAppliance | null = null;
after(async () => t?.close());

const DAILY = ['local:repo:open', 'local:repo:lock', 'local:manifest', 'local:sqlite:integrity', 'local:vault:decrypt'];

test('a healthy backup: daily and deep drills PASS (exit 0) and leave the repository untouched', async () => {
  t = await startTestAppliance();
  const { ctx } = t.appliance;
  ctx.secrets.vault.set('repo/example/secret', 'a value only the vault key opens');
  await t.api.post('/v1/responses', { model: 'tiny', input: 'hello', max_output_tokens: 8 });
  await backupNow(ctx);
  const repoDir = getRepository(ctx.writer, 'local')?.location ?? '';
  assert.ok(existsSync(join(repoDir, 'config')));

  const before = fingerprint(repoDir);
  const daily = await drillCli(t.dataDir);
  assert.equal(daily.ran.code, 0, daily.ran.stderr + daily.ran.stdout);
  assert.equal(daily.verdict, 'PASS');
  assert.deepEqual(
    daily.checks.map((c) => c.name),
    DAILY,
  );
  assert.ok(daily.checks.every((c) => c.status === 'pass'));
  assert.match(daily.detail('local:vault:decrypt'), /opens the 1 value/);
  assert.match(daily.detail('local:manifest'), /all 4 items present.*sha256 only in the deep drill/);
  assert.deepEqual(fingerprint(repoDir), before, 'the daily drill wrote nothing to the repository');

  const deep = await drillCli(t.dataDir, ['--deep']);
  assert.equal(deep.ran.code, 0, deep.ran.stderr + deep.ran.stdout);
  assert.equal(deep.verdict, 'PASS');
  assert.deepEqual(
    deep.checks.map((c) => c.name),
    [...DAILY, 'local:read-data', 'local:restore:rehearsal'],
  );
  assert.match(deep.detail('local:read-data'), /subset \d\/8: read [1-9]\d* of \d+ data packs, no errors/);
  assert.match(deep.detail('local:restore:rehearsal'), /every sha256 matches; Sanad opened the store/);
  assert.deepEqual(fingerprint(repoDir), before, 'the deep drill (restic check --no-lock, a full restore) wrote nothing either');

  assert.deepEqual(
    readdirSync(join(t.dataDir, 'drills')).filter((n) => n.startsWith('scratch-')),
    [],
    'scratch dirs are removed',
  );
  const runs = listDrillRuns(ctx.writer);
  assert.deepEqual(
    runs.map((r) => [r.kind, r.trigger, r.verdict, r.status]),
    [
      ['deep', 'cli', 'PASS', 'ok'],
      ['daily', 'cli', 'PASS', 'ok'],
    ],
  );

  // The control: the same check without --no-lock makes and removes a lock, and the fingerprint sees it.
  const { target, deps } = await localTarget(ctx);
  assert.equal(deps.restic.runtime.noLock, undefined, 'the backup runtime locks');
  assert.deepEqual(await deps.restic.check(target), { ok: true });
  assert.notDeepEqual(fingerprint(repoDir), before, 'a locking command does show in the fingerprint');

  const ready = await t.api.get('/health/ready');
  assert.equal(ready.status, 200);
  assert.match(JSON.stringify(ready.body), /the last deep drill \([^)]+\) PASSED/);
});
