// A folder as a backup target (an external disk, another local folder): restic's own local
// repositories. SQLite cannot change a CHECK, so the table is rebuilt with the same rows.
import type { Migration } from './migration.js';

export const folderTargets: Migration = {
  version: 20,
  name: '0020-folder-targets',
  up(db) {
    db.exec(`
      CREATE TABLE repositories_new (
        name          TEXT PRIMARY KEY,
        type          TEXT NOT NULL CHECK (type IN ('local','s3','rest','rclone','folder')),
        location      TEXT NOT NULL,
        options       TEXT NOT NULL DEFAULT '{}',
        enabled       INTEGER NOT NULL DEFAULT 1,
        created_at    INTEGER NOT NULL,
        last_ok_at    INTEGER,
        last_error    TEXT,
        last_error_at INTEGER
      ) STRICT;
      INSERT INTO repositories_new SELECT name, type, location, options, enabled, created_at, last_ok_at, last_error, last_error_at FROM repositories;
      DROP TABLE repositories;
      ALTER TABLE repositories_new RENAME TO repositories;
    `);
  },
};
