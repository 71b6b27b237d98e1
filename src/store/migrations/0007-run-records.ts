// Every kind of long-running work leaves a row, so a run that a crash cut short can be found and
// settled at the next start (jobs/leftovers.ts) and shown as "interrupted", not "did not finish":
// - backup_runs may now be `interrupted`, and keeps the compressed offsite copy's outcome (SQLite cannot change a CHECK in place: the table is
//   rebuilt, and backup_copies with it so its rows survive; a copy now keeps restic's summary,
//   so a client following a backup over the API sees what it added);
// - restore_runs records the restores the service starts (the GUI's), with the first folder each
//   created, so a restore that died half-way can be put back;
// - temporary_clients holds the admin client a CLI command makes to ask the running service,
//   revoked right after; a backup generation leaves the table empty.
import type { Migration } from './migration.js';

export const runRecords: Migration = {
  version: 7,
  name: '0007-run-records',
  up(db) {
    // Foreign keys cannot be switched off inside the migration's transaction, and dropping
    // backup_runs would cascade into any table that references it: backup_copies' rows wait in a
    // plain stash while the runs table is swapped, then come back under the same schema.
    db.exec(`
        CREATE TABLE backup_runs_v7 (
          id          INTEGER PRIMARY KEY,
          generation  INTEGER,
          trigger     TEXT NOT NULL,
          status      TEXT NOT NULL CHECK (status IN ('running','ok','partial','failed','interrupted')),
          error       TEXT,
          started_at  INTEGER NOT NULL,
          finished_at INTEGER,
          offsite_copy TEXT
        ) STRICT;
        INSERT INTO backup_runs_v7(id, generation, trigger, status, error, started_at, finished_at)
          SELECT id, generation, trigger, status, error, started_at, finished_at FROM backup_runs;
        CREATE TABLE backup_copies_stash AS SELECT run_id, repository, ok, snapshot_id, error, finished_at FROM backup_copies;
        DROP TABLE backup_copies;
        DROP TABLE backup_runs;
        ALTER TABLE backup_runs_v7 RENAME TO backup_runs;
        CREATE TABLE backup_copies (
          run_id      INTEGER NOT NULL REFERENCES backup_runs(id) ON DELETE CASCADE,
          repository  TEXT NOT NULL,
          ok          INTEGER NOT NULL,
          snapshot_id TEXT,
          error       TEXT,
          finished_at INTEGER NOT NULL,
          summary     TEXT,
          PRIMARY KEY (run_id, repository)
        ) STRICT;
        INSERT INTO backup_copies(run_id, repository, ok, snapshot_id, error, finished_at) SELECT * FROM backup_copies_stash;
        DROP TABLE backup_copies_stash;

        CREATE TABLE temporary_clients (
          id           TEXT PRIMARY KEY,
          name         TEXT NOT NULL,
          token_hash   TEXT NOT NULL UNIQUE,
          scopes       TEXT NOT NULL,
          created_at   INTEGER NOT NULL,
          last_used_at INTEGER,
          revoked_at   INTEGER
        ) STRICT;

        CREATE TABLE restore_runs (
          id          TEXT PRIMARY KEY,
          repo        TEXT NOT NULL,
          target      TEXT NOT NULL,
          created_top TEXT,
          status      TEXT NOT NULL CHECK (status IN ('running','succeeded','failed','interrupted')),
          generation  INTEGER,
          result      TEXT,
          error       TEXT,
          started_at  INTEGER NOT NULL,
          finished_at INTEGER
        ) STRICT;
    `);
  },
};
