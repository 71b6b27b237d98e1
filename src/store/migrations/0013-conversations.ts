// Conversations (the Responses API's state between turns): a response may continue another one
// (previous_response_id) or belong to a conversation whose items are its context and to which
// its turn is added when it completes. A later turn may refer to any stored item by its id
// (`item_reference`). A new response's items are named after it (its answer `msg_<S>`, its input
// items `msg_<S>_<n>` for `resp_<S>`), so finding one is a primary-key read and a create writes no
// extra index; only answers of older stores, whose ids were random, are in the partial index.
import type { Migration } from './migration.js';

export const conversations: Migration = {
  version: 13,
  name: '0013-conversations',
  up(db) {
    db.exec(`
      ALTER TABLE responses ADD COLUMN previous_response_id TEXT;
      ALTER TABLE responses ADD COLUMN conversation_id TEXT;
      ALTER TABLE responses ADD COLUMN truncated_items INTEGER NOT NULL DEFAULT 0;
      CREATE INDEX responses_older_item ON responses(item_id) WHERE item_id <> 'msg_' || substr(id, 6);
      CREATE INDEX responses_conversation ON responses(conversation_id) WHERE conversation_id IS NOT NULL;

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
