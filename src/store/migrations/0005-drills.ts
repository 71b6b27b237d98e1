// Drill history: one row per drill (daily or deep, whole or one repository), its verdict and the
// checklist behind it, so the GUI, `/health/ready` and the schedule read what really ran. A row
// still `running` when no drill holds the drill lock was left by a process that died: the next
// drill marks it `interrupted`, and only `finished` rows count for the schedule.
import type { Migration } from './migration.js';

export const drills: Migration = {
  version: 5,
  name: '0005-drills',
  up(db) {
    db.exec(`
      CREATE TABLE drill_runs (
        id          INTEGER PRIMARY KEY,
        kind        TEXT NOT NULL CHECK (kind IN ('daily','deep')),
        trigger     TEXT NOT NULL,
        repo        TEXT,
        status      TEXT NOT NULL CHECK (status IN ('running','finished','interrupted')),
        verdict     TEXT CHECK (verdict IN ('PASS','FAIL','UNVERIFIED')),
        checks      TEXT NOT NULL DEFAULT '[]',
        started_at  INTEGER NOT NULL,
        finished_at INTEGER
      ) STRICT;
      CREATE INDEX drill_runs_by_end ON drill_runs(status, finished_at);
    `);
  },
};
