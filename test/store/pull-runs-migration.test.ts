// Migration 28 makes `runs` again to add the `pull` kind: a store at version 27 holding runs of
// every kind with their details (a backup with its copies, a drill, a restore, one left running)
// comes over whole, ids and details kept, its indexes back, and a pull's run can then be written
// and named by its model_pulls row.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { currentVersion } from '../../src/store/migrate.js';
import { MIGRATIONS } from '../../src/store/migrations/index.js';
import { openStore } from '../../src/store/open.js';
import { tempDir } from '../harness/data-dir.js';
import { storePath } from '../../src/files/data-dir-layout.js';

const MS = 1_780_000_000_000;

test('migration 28: every run and its details come over, indexes included, and a run may be a pull', () => {
  const path = storePath(tempDir('sanad-pull-runs-'));
  const old = openStore(path, { migrations: MIGRATIONS.slice(0, 27) });
  assert.equal(currentVersion(old), 27);
  const run = old.prepare('INSERT INTO runs(id, kind, trigger, status, error, generation, started_at, ended_at, progress) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)');
  run.run(3, 'backup', 'schedule', 'ok', null, 7, MS, MS + 10, null);
  run.run(5, 'drill', 'api', 'ok', null, 7, MS + 20, MS + 30, null);
  run.run(8, 'restore', 'api', 'failed', 'no space', 7, MS + 40, MS + 50, null);
  run.run(9, 'maintenance', 'after-backup', 'running', null, null, MS + 60, null, '{"phase":"generation","step":"x"}');
  old.prepare('INSERT INTO backup_details(run_id, manifest, offsite_copy) VALUES (3, ?, NULL)').run('{"m":1}');
  old.prepare("INSERT INTO backup_copies(run_id, repository, ok, snapshot_id, error, finished_at) VALUES (3, 'local', 1, 'abc', NULL, ?)").run(MS + 9);
  old.prepare("INSERT INTO drill_details(run_id, depth, repo, verdict, checks) VALUES (5, 'deep', 'local', 'PASS', '[]')").run();
  old.prepare("INSERT INTO restore_details(run_id, repo, target, created_top, result) VALUES (8, 'local', '/t', NULL, NULL)").run();
  const indexesBefore = old.prepare<[], { name: string }>("SELECT name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL ORDER BY name").all();
  const before = {
    runs: old.prepare('SELECT * FROM runs ORDER BY id').all(),
    copies: old.prepare('SELECT * FROM backup_copies').all(),
    drills: old.prepare('SELECT * FROM drill_details').all(),
    restores: old.prepare('SELECT * FROM restore_details').all(),
    backups: old.prepare('SELECT * FROM backup_details').all(),
  };
  old.close();

  const db = openStore(path);
  assert.ok(currentVersion(db) >= 28);
  assert.deepEqual(
    {
      runs: db.prepare('SELECT * FROM runs ORDER BY id').all(),
      copies: db.prepare('SELECT * FROM backup_copies').all(),
      drills: db.prepare('SELECT * FROM drill_details').all(),
      restores: db.prepare('SELECT * FROM restore_details').all(),
      backups: db.prepare('SELECT * FROM backup_details').all(),
    },
    before,
  );
  assert.deepEqual(db.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL ORDER BY name").all(), indexesBefore);
  assert.deepEqual(db.prepare('PRAGMA foreign_key_check').all(), [], 'every detail still has its run');
  // The details still go with their run.
  db.prepare('DELETE FROM runs WHERE id = 3').run();
  assert.equal(db.prepare<[], { n: number }>('SELECT COUNT(*) AS n FROM backup_copies').get()?.n, 0);
  // A pull is a run now, and its download row names it.
  db.prepare("INSERT INTO runs(id, kind, trigger, status, started_at) VALUES (12, 'pull', 'api', 'running', ?)").run(MS);
  db.prepare(
    "INSERT INTO model_pulls(id, uri, url, file_name, model_id, size_bytes, status, created_at, run_id) VALUES ('pull_1', 'hf:a/b', 'https://x/b.gguf', 'b.gguf', 'b', 1, 'running', ?, 12)",
  ).run(MS);
  assert.throws(() => db.prepare("INSERT INTO runs(kind, trigger, status, started_at) VALUES ('nap', 'api', 'running', 0)").run(), /CHECK/);
  db.close();
});
