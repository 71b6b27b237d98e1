// One record for every long-running run (jobs/runs.ts owns it): the three designs before it
// (backup_runs in seconds with integer ids, drill_runs in seconds with finished/interrupted and a
// verdict, restore_runs in milliseconds with string ids and succeeded/failed) become one `runs`
// table in milliseconds with one status, and each kind keeps only its details, keyed by run id.
//
// Every old row is carried over. Backup runs keep their ids (backup_copies points at them); drill
// runs, then restores, are numbered after the last backup run in the order they started, so each
// kind keeps its order and every run made from now on has a higher id. Statuses: a drill that
// finished (any verdict) and a restore that succeeded are `ok`; a row still `running` stays so and is
// settled at the next start like any run a crash cut short.
import type { Migration } from './migration.js';

export const runs: Migration = {
  version: 21,
  name: '0021-runs',
  up(db) {
    // Foreign keys cannot be switched off inside the migration's transaction, and dropping
    // backup_runs would cascade into backup_copies: its rows wait in a plain stash meanwhile.
    db.exec(`
      CREATE TABLE runs (
        id          INTEGER PRIMARY KEY,
        kind        TEXT NOT NULL CHECK (kind IN ('backup','drill','restore')),
        trigger     TEXT NOT NULL,
        status      TEXT NOT NULL CHECK (status IN ('queued','running','ok','partial','failed','interrupted','cancelled')),
        error       TEXT,
        generation  INTEGER,
        started_at  INTEGER NOT NULL,
        ended_at    INTEGER
      ) STRICT;
      CREATE INDEX runs_by_kind ON runs(kind, id);
      CREATE INDEX runs_open ON runs(status) WHERE status IN ('queued','running');

      INSERT INTO runs(id, kind, trigger, status, error, generation, started_at, ended_at)
        SELECT id, 'backup', trigger, status, error, generation, started_at * 1000, finished_at * 1000 FROM backup_runs;
      CREATE TABLE backup_details (
        run_id       INTEGER PRIMARY KEY REFERENCES runs(id) ON DELETE CASCADE,
        manifest     TEXT,
        offsite_copy TEXT
      ) STRICT;
      INSERT INTO backup_details(run_id, manifest, offsite_copy) SELECT id, manifest, offsite_copy FROM backup_runs;

      CREATE TEMP TABLE run_base AS SELECT COALESCE(MAX(id), 0) AS n FROM runs;
      CREATE TEMP TABLE drill_ids AS
        SELECT id AS old_id, (SELECT n FROM run_base) + ROW_NUMBER() OVER (ORDER BY id) AS new_id FROM drill_runs;
      INSERT INTO runs(id, kind, trigger, status, error, generation, started_at, ended_at)
        SELECT m.new_id, 'drill', d.trigger, CASE d.status WHEN 'finished' THEN 'ok' ELSE d.status END, NULL, NULL, d.started_at * 1000, d.finished_at * 1000
        FROM drill_runs d JOIN drill_ids m ON m.old_id = d.id;
      CREATE TABLE drill_details (
        run_id     INTEGER PRIMARY KEY REFERENCES runs(id) ON DELETE CASCADE,
        depth      TEXT NOT NULL CHECK (depth IN ('daily','deep')),
        repo       TEXT,
        verdict    TEXT CHECK (verdict IN ('PASS','FAIL','UNVERIFIED')),
        checks     TEXT NOT NULL DEFAULT '[]'
      ) STRICT;
      INSERT INTO drill_details(run_id, depth, repo, verdict, checks)
        SELECT m.new_id, d.kind, d.repo, d.verdict, d.checks FROM drill_runs d JOIN drill_ids m ON m.old_id = d.id;

      DELETE FROM run_base;
      INSERT INTO run_base SELECT COALESCE(MAX(id), 0) FROM runs;
      CREATE TEMP TABLE restore_ids AS
        SELECT id AS old_id, (SELECT n FROM run_base) + ROW_NUMBER() OVER (ORDER BY started_at, id) AS new_id FROM restore_runs;
      INSERT INTO runs(id, kind, trigger, status, error, generation, started_at, ended_at)
        SELECT m.new_id, 'restore', 'gui', CASE r.status WHEN 'succeeded' THEN 'ok' ELSE r.status END, r.error, r.generation, r.started_at, r.finished_at
        FROM restore_runs r JOIN restore_ids m ON m.old_id = r.id;
      CREATE TABLE restore_details (
        run_id      INTEGER PRIMARY KEY REFERENCES runs(id) ON DELETE CASCADE,
        repo        TEXT NOT NULL,
        target      TEXT NOT NULL,
        created_top TEXT,
        result      TEXT
      ) STRICT;
      INSERT INTO restore_details(run_id, repo, target, created_top, result)
        SELECT m.new_id, r.repo, r.target, r.created_top, r.result FROM restore_runs r JOIN restore_ids m ON m.old_id = r.id;

      CREATE TABLE backup_copies_stash AS SELECT run_id, repository, ok, snapshot_id, error, finished_at, summary, snapshot FROM backup_copies;
      DROP TABLE backup_copies;
      DROP TABLE backup_runs;
      DROP TABLE drill_runs;
      DROP TABLE restore_runs;
      CREATE TABLE backup_copies (
        run_id      INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
        repository  TEXT NOT NULL,
        ok          INTEGER NOT NULL,
        snapshot_id TEXT,
        error       TEXT,
        finished_at INTEGER NOT NULL,
        summary     TEXT,
        snapshot    TEXT,
        PRIMARY KEY (run_id, repository)
      ) STRICT;
      INSERT INTO backup_copies SELECT * FROM backup_copies_stash;
      DROP TABLE backup_copies_stash;
      DROP TABLE run_base;
      DROP TABLE drill_ids;
      DROP TABLE restore_ids;
    `);
  },
};
