// Migration 21 carries every run of the three old designs into the one record: a store made by the
// schema before it (backup_runs in seconds with integer ids, drill_runs in seconds with
// finished/interrupted and a verdict, restore_runs in milliseconds with string ids), holding rows of
// every status each knew, including ones a crash left running, is opened by this Sanad. Every row
// must come over with its kind's details, in one unit and one status enum, each kind in its order,
// and the ones left running must then be settled by the one settle like any run a crash cut short.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { recentBackupRuns, recordedCopies } from '../../src/repository/backup-runs.js';
import { ManualClock } from '../../src/clock.js';
import { getDrillRun, lastFinishedRun, listDrillRuns } from '../../src/drill/drill-runs.js';
import { settleRunsHere } from '../../src/jobs/leftovers.js';
import { listRuns } from '../../src/jobs/runs.js';
import { silentLogger } from '../../src/log/logger.js';
import { getRestoreRun } from '../../src/restore/restore-runs.js';
import { WORK_PREFIX } from '../../src/restore/target-dir.js';
import { currentVersion } from '../../src/store/migrate.js';
import { MIGRATIONS } from '../../src/store/migrations/index.js';
import { openStore } from '../../src/store/open.js';
import { tempDir } from '../harness/data-dir.js';
import { storePath } from '../../src/files/data-dir-layout.js';

const S = 1_780_000_000; // Unix seconds, as the old backup and drill tables kept them

test('migration 21: every backup, drill and restore row of the old tables becomes one run with its details, and the ones left running are settled', async () => {
  const dataDir = tempDir('sanad-runs-migration-');
  const path = storePath(dataDir);
  const old = openStore(path, { migrations: MIGRATIONS.slice(0, 20) });
  assert.equal(currentVersion(old), 20);
  const backups = ['ok', 'partial', 'failed', 'interrupted', 'running'];
  backups.forEach((status, i) =>
    old
      .prepare(
        'INSERT INTO backup_runs(id, generation, trigger, status, error, started_at, finished_at, offsite_copy, manifest) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
      )
      .run(
        i + 1,
        status === 'failed' ? null : S + i,
        'schedule',
        status,
        status === 'failed' ? 'disk full' : null,
        S + i * 10,
        status === 'running' ? null : S + i * 10 + 5,
        status === 'ok' ? JSON.stringify({ destination: 'r:copies', ok: true, name: 'g.tar.zst.age', deleted: [], error: null }) : null,
        status === 'ok' ? '{"items":[]}' : null,
      ),
  );
  old
    .prepare('INSERT INTO backup_copies(run_id, repository, ok, snapshot_id, error, finished_at, summary, snapshot) VALUES (1, ?, 1, ?, NULL, ?, NULL, ?)')
    .run('local', 'abc123', S + 5, JSON.stringify({ paths: ['/x'], host: 'h', time: '2026-06-01T00:00:00Z' }));
  old
    .prepare('INSERT INTO backup_copies(run_id, repository, ok, snapshot_id, error, finished_at) VALUES (2, ?, 0, NULL, ?, ?)')
    .run('offsite', 'timed out', S + 15);
  const drills: Array<[string, string | null]> = [
    ['finished', 'PASS'],
    ['finished', 'FAIL'],
    ['interrupted', 'UNVERIFIED'],
    ['running', null],
  ];
  drills.forEach(([status, verdict], i) =>
    old
      .prepare('INSERT INTO drill_runs(id, kind, trigger, repo, status, verdict, checks, started_at, finished_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)')
      .run(
        i + 1,
        i === 1 ? 'deep' : 'daily',
        'schedule',
        null,
        status,
        verdict,
        JSON.stringify(
          verdict === 'FAIL' ? [{ name: 'local:read-data', status: 'fail', detail: 'damaged', code: 'said.text', params: { text: 'damaged' } }] : [],
        ),
        S + 100 + i,
        status === 'running' ? null : S + 100 + i + 1,
      ),
  );
  const leftTarget = join(tempDir('sanad-left-'), 'restored');
  mkdirSync(join(leftTarget, `${WORK_PREFIX}x`), { recursive: true });
  writeFileSync(join(leftTarget, `${WORK_PREFIX}x`, 'half'), 'half a store');
  const restores: Array<[string, string, string]> = [
    ['restore_b', 'succeeded', '/r/ok'],
    ['restore_a', 'failed', '/r/failed'],
    ['restore_c', 'interrupted', '/r/cut'],
    ['restore_d', 'running', leftTarget],
  ];
  restores.forEach(([id, status, target], i) =>
    old
      .prepare(
        'INSERT INTO restore_runs(id, repo, target, created_top, status, generation, result, error, started_at, finished_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
      )
      .run(
        id,
        'local',
        target,
        status === 'running' ? leftTarget : null,
        status,
        status === 'succeeded' ? S : null,
        null,
        status === 'failed' ? 'no space' : null,
        (S + 200 + i) * 1000,
        status === 'running' ? null : (S + 200 + i) * 1000 + 7,
      ),
  );
  old.close();

  const db = openStore(path);
  assert.ok(currentVersion(db) >= 21);
  const tables = db
    .prepare<[], { name: string }>("SELECT name FROM sqlite_master WHERE type = 'table'")
    .all()
    .map((r) => r.name);
  for (const gone of ['backup_runs', 'drill_runs', 'restore_runs']) assert.ok(!tables.includes(gone), `${gone} is gone`);

  const all = listRuns(db, { limit: 100 }).reverse();
  assert.equal(all.length, backups.length + drills.length + restores.length, 'no row lost');
  assert.deepEqual(
    all.map((r) => [r.id, r.kind, r.status]),
    [
      [1, 'backup', 'ok'],
      [2, 'backup', 'partial'],
      [3, 'backup', 'failed'],
      [4, 'backup', 'interrupted'],
      [5, 'backup', 'running'],
      [6, 'drill', 'ok'],
      [7, 'drill', 'ok'],
      [8, 'drill', 'interrupted'],
      [9, 'drill', 'running'],
      // Restores in the order they started, not by their old string ids.
      [10, 'restore', 'ok'],
      [11, 'restore', 'failed'],
      [12, 'restore', 'interrupted'],
      [13, 'restore', 'running'],
    ],
  );
  assert.equal(all[0]?.started_at, S * 1000, 'seconds became milliseconds');
  assert.equal(all[0]?.ended_at, (S + 5) * 1000);
  assert.equal(all[9]?.started_at, (S + 200) * 1000, 'restores were already in milliseconds');
  assert.equal(all[9]?.ended_at, (S + 200) * 1000 + 7);
  assert.equal(all[2]?.error, 'disk full');

  // Each kind's reads see what they saw before.
  const shown = recentBackupRuns(db, 10);
  assert.equal(shown.runs.find((r) => r.id === 1)?.offsite_copy?.name, 'g.tar.zst.age');
  assert.equal(shown.runs.find((r) => r.id === 1)?.started_at, S, 'the backup answers still speak seconds');
  assert.deepEqual(shown.copies.map((c) => [c.run_id, c.repository, c.ok]).sort(), [
    [1, 'local', 1],
    [2, 'offsite', 0],
  ]);
  assert.deepEqual(
    recordedCopies(db, 'local').map((c) => [c.generation, c.snapshot_id]),
    [[S, 'abc123']],
    'a restore on this machine still finds its copy and manifest',
  );
  assert.deepEqual(
    listDrillRuns(db).map((d) => [d.id, d.kind, d.verdict]),
    [
      [9, 'daily', null],
      [8, 'daily', 'UNVERIFIED'],
      [7, 'deep', 'FAIL'],
      [6, 'daily', 'PASS'],
    ],
  );
  assert.equal(getDrillRun(db, 7)?.checks[0]?.name, 'local:read-data');
  assert.equal(lastFinishedRun(db, 'deep')?.id, 7, 'the schedule still counts the finished deep drill');
  assert.equal(getRestoreRun(db, 11)?.error, 'no space');
  assert.equal(getRestoreRun(db, 10)?.target, '/r/ok');

  // The rows left running: no process holds their locks, so the one settle ends each of them.
  const report = await settleRunsHere({ db, dataDir, clock: new ManualClock((S + 999) * 1000), logger: silentLogger });
  assert.deepEqual(
    report.runs.map((r) => [r.id, r.kind, r.status]),
    [
      [5, 'backup', 'interrupted'],
      [9, 'drill', 'interrupted'],
      [13, 'restore', 'interrupted'],
    ],
  );
  assert.deepEqual(
    listRuns(db, { limit: 100 }).filter((r) => r.status === 'running'),
    [],
  );
  assert.equal(getDrillRun(db, 9)?.verdict, 'UNVERIFIED', 'a drill cut short proves nothing');
  assert.match(getRestoreRun(db, 13)?.error ?? '', /was put back as it was before/);
  assert.equal(existsSync(leftTarget), false, 'the half-made target of the restore left running is put back');
  db.close();
});
