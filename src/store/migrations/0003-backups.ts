// Backup repositories, runs (one generation each) with their per-repository results, and the
// persisted alert list the GUI and tray show.
import type { Migration } from './migration.js';

export const backups: Migration = {
  version: 3,
  name: '0003-backups',
  up(db) {
    db.exec(`
      CREATE TABLE repositories (
        name          TEXT PRIMARY KEY,
        type          TEXT NOT NULL CHECK (type IN ('local','s3','rest','rclone')),
        location      TEXT NOT NULL,
        options       TEXT NOT NULL DEFAULT '{}',
        enabled       INTEGER NOT NULL DEFAULT 1,
        created_at    INTEGER NOT NULL,
        last_ok_at    INTEGER,
        last_error    TEXT,
        last_error_at INTEGER
      ) STRICT;

      CREATE TABLE backup_runs (
        id          INTEGER PRIMARY KEY,
        generation  INTEGER,
        trigger     TEXT NOT NULL,
        status      TEXT NOT NULL CHECK (status IN ('running','ok','partial','failed')),
        error       TEXT,
        started_at  INTEGER NOT NULL,
        finished_at INTEGER
      ) STRICT;

      CREATE TABLE backup_copies (
        run_id      INTEGER NOT NULL REFERENCES backup_runs(id) ON DELETE CASCADE,
        repository  TEXT NOT NULL,
        ok          INTEGER NOT NULL,
        snapshot_id TEXT,
        error       TEXT,
        finished_at INTEGER NOT NULL,
        PRIMARY KEY (run_id, repository)
      ) STRICT;

      CREATE TABLE alerts (
        key         TEXT PRIMARY KEY,
        severity    TEXT NOT NULL CHECK (severity IN ('info','warning','critical')),
        message     TEXT NOT NULL,
        first_seen  INTEGER NOT NULL,
        last_seen   INTEGER NOT NULL,
        count       INTEGER NOT NULL DEFAULT 1,
        resolved_at INTEGER
      ) STRICT;
    `);
  },
};
