// Runs of every long-running kind, with their progress. Maintenance (after a backup) and "Copy to
// offsite now" become runs like backups, drills and restores, and a run keeps what it is doing in
// its own record (`progress`, JSON, written throttled by the job owner; null while it waits and once
// it ended), so the run is the one place to read it, in this process or another.
//
// SQLite cannot widen a CHECK in place, so `runs` is made again. Foreign keys cannot be switched off
// inside the migration's transaction and dropping `runs` would cascade into the details: those wait
// in plain stashes meanwhile (as in 0021), and every row comes back with its id.
import type { Migration } from './migration.js';

const DETAILS = ['backup_details', 'drill_details', 'restore_details', 'backup_copies'] as const;

export const runsOfEveryKind: Migration = {
  version: 27,
  name: '0027-runs-of-every-kind',
  up(db) {
    for (const t of DETAILS) db.exec(`CREATE TABLE ${t}_stash AS SELECT * FROM ${t}; DROP TABLE ${t};`);
    db.exec(`
      CREATE TABLE runs_stash AS SELECT * FROM runs;
      DROP TABLE runs;
      CREATE TABLE runs (
        id          INTEGER PRIMARY KEY,
        kind        TEXT NOT NULL CHECK (kind IN ('backup','drill','restore','maintenance','offsite-copy')),
        trigger     TEXT NOT NULL,
        status      TEXT NOT NULL CHECK (status IN ('queued','running','ok','partial','failed','interrupted','cancelled')),
        error       TEXT,
        generation  INTEGER,
        started_at  INTEGER NOT NULL,
        ended_at    INTEGER,
        progress    TEXT
      ) STRICT;
      CREATE INDEX runs_by_kind ON runs(kind, id);
      CREATE INDEX runs_open ON runs(status) WHERE status IN ('queued','running');
      INSERT INTO runs(id, kind, trigger, status, error, generation, started_at, ended_at)
        SELECT id, kind, trigger, status, error, generation, started_at, ended_at FROM runs_stash;
      DROP TABLE runs_stash;

      CREATE TABLE backup_details (
        run_id       INTEGER PRIMARY KEY REFERENCES runs(id) ON DELETE CASCADE,
        manifest     TEXT,
        offsite_copy TEXT
      ) STRICT;
      CREATE TABLE drill_details (
        run_id     INTEGER PRIMARY KEY REFERENCES runs(id) ON DELETE CASCADE,
        depth      TEXT NOT NULL CHECK (depth IN ('daily','deep')),
        repo       TEXT,
        verdict    TEXT CHECK (verdict IN ('PASS','FAIL','UNVERIFIED')),
        checks     TEXT NOT NULL DEFAULT '[]'
      ) STRICT;
      CREATE TABLE restore_details (
        run_id      INTEGER PRIMARY KEY REFERENCES runs(id) ON DELETE CASCADE,
        repo        TEXT NOT NULL,
        target      TEXT NOT NULL,
        created_top TEXT,
        result      TEXT
      ) STRICT;
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
    `);
    for (const t of DETAILS) db.exec(`INSERT INTO ${t} SELECT * FROM ${t}_stash; DROP TABLE ${t}_stash;`);
  },
};
