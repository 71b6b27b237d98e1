// Encrypted offsite copies that were uploaded: what each object should be (name, size, sha256),
// so the weekly drill can read back every object's size against what was sent, and prune can
// forget the rows of objects it deleted.
import type { Migration } from './migration.js';

export const offsiteCopies: Migration = {
  version: 4,
  name: '0004-offsite-copies',
  up(db) {
    db.exec(`
      CREATE TABLE offsite_copies (
        destination TEXT NOT NULL,
        name        TEXT NOT NULL,
        epoch       INTEGER NOT NULL,
        size        INTEGER NOT NULL CHECK (size >= 0),
        sha256      TEXT NOT NULL,
        uploaded_at INTEGER NOT NULL,
        PRIMARY KEY (destination, name)
      ) STRICT;
    `);
  },
};
