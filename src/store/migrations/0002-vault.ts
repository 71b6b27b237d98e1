// The vault: every secret other than the two master secrets, each value sealed with AES-256-GCM
// under the vault key (src/secrets/vault.ts). Only the sealed parts are stored, never the value;
// the id of the key that sealed them lives in `service_config` (`vault_key_id`), so Sanad can tell
// which key the vault needs without the key ever touching the database.
import type { Migration } from './migration.js';

export const vault: Migration = {
  version: 2,
  name: '0002-vault',
  up(db) {
    db.exec(`
      CREATE TABLE vault (
        name       TEXT PRIMARY KEY,
        nonce      BLOB NOT NULL,
        ciphertext BLOB NOT NULL,
        tag        BLOB NOT NULL,
        updated_at INTEGER NOT NULL
      ) STRICT;
    `);
  },
};
