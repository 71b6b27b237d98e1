// bring_backs: the audit of responses brought back from a generation into the live data (which
// generation, which repository and snapshot, who asked, when, and whether it undid a deletion).
// Ids and names only, never content.
import type { Migration } from './migration.js';

export const bringBacks: Migration = {
  version: 8,
  name: '0008-bring-backs',
  up(db) {
    db.exec(`
      CREATE TABLE bring_backs (
        id          INTEGER PRIMARY KEY,
        response_id TEXT NOT NULL,
        generation  INTEGER NOT NULL,
        repo        TEXT NOT NULL,
        snapshot_id TEXT NOT NULL,
        by_whom     TEXT NOT NULL,
        undeleted   INTEGER NOT NULL,
        at          INTEGER NOT NULL
      ) STRICT;
      CREATE INDEX bring_backs_at ON bring_backs(at);
    `);
  },
};
