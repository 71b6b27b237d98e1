// Conversations (the Responses API's state between turns): a response may continue another one
// (previous_response_id) or belong to a conversation whose items are its context and to which
// its turn is added when it completes. Input items keep their ids, so a later turn can refer to
// any of them (`item_reference`); the index below finds the response that holds one. The items'
// text stays in the response's stored request: the index holds ids only.
import type { Migration } from './migration.js';

export const conversations: Migration = {
  version: 13,
  name: '0013-conversations',
  up(db) {
    db.exec(`
      ALTER TABLE responses ADD COLUMN previous_response_id TEXT;
      ALTER TABLE responses ADD COLUMN conversation_id TEXT;
      ALTER TABLE responses ADD COLUMN truncated_items INTEGER NOT NULL DEFAULT 0;
      CREATE INDEX responses_item ON responses(item_id);
      CREATE INDEX responses_conversation ON responses(conversation_id) WHERE conversation_id IS NOT NULL;

      CREATE TABLE response_input_items (
        id          TEXT NOT NULL,
        response_id TEXT NOT NULL REFERENCES responses(id) ON DELETE CASCADE,
        position    INTEGER NOT NULL,
        PRIMARY KEY (response_id, position)
      ) STRICT;
      CREATE INDEX response_input_items_id ON response_input_items(id);

      CREATE TABLE conversations (
        id         TEXT PRIMARY KEY,
        client_id  TEXT REFERENCES clients(id),
        metadata   TEXT,
        created_at INTEGER NOT NULL
      ) STRICT;

      -- One row per item, in order. An item added by a response keeps that response's item id.
      CREATE TABLE conversation_items (
        conversation_id TEXT NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
        position        INTEGER NOT NULL,
        id              TEXT NOT NULL,
        data            TEXT NOT NULL,
        response_id     TEXT,
        created_at      INTEGER NOT NULL,
        PRIMARY KEY (conversation_id, position),
        UNIQUE (conversation_id, id)
      ) STRICT;
      CREATE INDEX conversation_items_id ON conversation_items(id);
    `);
  },
};
