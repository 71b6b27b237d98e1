// The tables of LMSP 1.0 §11.1, plus pairing codes. Times are Unix seconds unless named `_ms`.
import type { Migration } from './migration.js';

export const lmspCore: Migration = {
  version: 1,
  name: '0001-lmsp-core',
  up(db) {
    db.exec(`
      CREATE TABLE service_config (
        key        TEXT PRIMARY KEY,
        value      TEXT NOT NULL,
        updated_at INTEGER NOT NULL
      ) STRICT;

      CREATE TABLE clients (
        id           TEXT PRIMARY KEY,
        name         TEXT NOT NULL,
        token_hash   TEXT NOT NULL UNIQUE,
        scopes       TEXT NOT NULL,
        created_at   INTEGER NOT NULL,
        last_used_at INTEGER,
        revoked_at   INTEGER
      ) STRICT;

      CREATE TABLE pairing_codes (
        code_hash  TEXT PRIMARY KEY,
        scopes     TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        expires_at INTEGER NOT NULL,
        used_at    INTEGER,
        client_id  TEXT REFERENCES clients(id)
      ) STRICT;

      CREATE TABLE models (
        id             TEXT PRIMARY KEY,
        path           TEXT NOT NULL,
        format         TEXT NOT NULL,
        size_bytes     INTEGER NOT NULL,
        mtime_ms       INTEGER NOT NULL,
        sha256         TEXT NOT NULL,
        architecture   TEXT,
        context_length INTEGER,
        created_at     INTEGER NOT NULL
      ) STRICT;

      CREATE TABLE responses (
        id            TEXT PRIMARY KEY,
        client_id     TEXT REFERENCES clients(id),
        model         TEXT NOT NULL,
        item_id       TEXT NOT NULL,
        request       TEXT NOT NULL,
        metadata      TEXT,
        background    INTEGER NOT NULL,
        store         INTEGER NOT NULL,
        output_text   TEXT,
        incomplete_reason TEXT,
        input_tokens  INTEGER,
        output_tokens INTEGER,
        created_at    INTEGER NOT NULL
      ) STRICT;

      CREATE TABLE tasks (
        id                   TEXT PRIMARY KEY,
        response_id          TEXT NOT NULL UNIQUE REFERENCES responses(id) ON DELETE CASCADE,
        client_id            TEXT REFERENCES clients(id),
        model                TEXT NOT NULL,
        status               TEXT NOT NULL CHECK (status IN
                               ('queued','loading','running','cancelling','completed','failed','cancelled')),
        on_restart           TEXT NOT NULL CHECK (on_restart IN ('fail','retry','resume')),
        last_sequence_number INTEGER NOT NULL DEFAULT 0,
        output_tokens        INTEGER NOT NULL DEFAULT 0,
        error_code           TEXT,
        error_message        TEXT,
        created_at           INTEGER NOT NULL,
        updated_at           INTEGER NOT NULL
      ) STRICT;
      CREATE INDEX tasks_status ON tasks(status, id);
      CREATE INDEX tasks_updated ON tasks(updated_at);

      CREATE TABLE task_events (
        task_id         TEXT NOT NULL REFERENCES tasks(id) ON DELETE CASCADE,
        sequence_number INTEGER NOT NULL,
        type            TEXT NOT NULL,
        data            TEXT NOT NULL,
        created_at      INTEGER NOT NULL,
        PRIMARY KEY (task_id, sequence_number)
      ) STRICT, WITHOUT ROWID;

      CREATE TABLE idempotency_keys (
        client_id   TEXT NOT NULL,
        key         TEXT NOT NULL,
        fingerprint TEXT NOT NULL,
        state       TEXT NOT NULL CHECK (state IN ('in_progress','done')),
        status_code INTEGER,
        body        TEXT,
        boot_id     TEXT NOT NULL,
        created_at  INTEGER NOT NULL,
        expires_at  INTEGER NOT NULL,
        PRIMARY KEY (client_id, key)
      ) STRICT;
      CREATE INDEX idempotency_expiry ON idempotency_keys(expires_at);
    `);
  },
};
