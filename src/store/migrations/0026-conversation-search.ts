// Conversation search by an index instead of a LIKE over every item's JSON on the main thread (50
// concurrent searches over 20,000 items held /health/live for 3.5 s). A trigram FTS5 table holds
// each message's text; triggers on conversation_items keep it, so every writer of items (turns,
// the items API, bring-back from a generation, retention, deletes and their cascade) keeps it too.
// Its rows are keyed by conversation_search_rows, whose INTEGER PRIMARY KEY survives VACUUM (an
// item's own rowid may not), and secure-delete removes a deleted message's words from the index
// itself, not only from its copy of the text.
import type { Migration } from './migration.js';

/** A message's text: its content string, or its parts' texts one per line; null for other items. */
const textOf = (data: string): string => `CASE json_type(${data}, '$.content')
    WHEN 'text' THEN json_extract(${data}, '$.content')
    WHEN 'array' THEN (SELECT group_concat(json_extract(p.value, '$.text'), char(10)) FROM json_each(${data}, '$.content') p
                       WHERE json_type(p.value) = 'object' AND json_type(p.value, '$.text') = 'text')
  END`;

export const conversationSearch: Migration = {
  version: 26,
  name: '0026-conversation-search',
  up(db) {
    db.exec(`
      CREATE TABLE conversation_search_rows (
        row             INTEGER PRIMARY KEY,
        conversation_id TEXT NOT NULL,
        item_id         TEXT NOT NULL,
        UNIQUE (conversation_id, item_id)
      ) STRICT;
      CREATE VIRTUAL TABLE conversation_search USING fts5(text, conversation_id UNINDEXED, tokenize = 'trigram');
      INSERT INTO conversation_search(conversation_search, rank) VALUES ('secure-delete', 1);
      CREATE TRIGGER conversation_items_search_add AFTER INSERT ON conversation_items
      WHEN (${textOf('new.data')}) IS NOT NULL BEGIN
        INSERT INTO conversation_search_rows(conversation_id, item_id) VALUES (new.conversation_id, new.id);
        INSERT INTO conversation_search(rowid, text, conversation_id) VALUES (last_insert_rowid(), ${textOf('new.data')}, new.conversation_id);
      END;
      CREATE TRIGGER conversation_items_search_remove AFTER DELETE ON conversation_items BEGIN
        DELETE FROM conversation_search WHERE rowid = (SELECT row FROM conversation_search_rows WHERE conversation_id = old.conversation_id AND item_id = old.id);
        DELETE FROM conversation_search_rows WHERE conversation_id = old.conversation_id AND item_id = old.id;
      END;
      INSERT INTO conversation_search_rows(conversation_id, item_id)
        SELECT conversation_id, id FROM conversation_items WHERE (${textOf('data')}) IS NOT NULL ORDER BY conversation_id, position;
      INSERT INTO conversation_search(rowid, text, conversation_id)
        SELECT r.row, ${textOf('i.data')}, i.conversation_id FROM conversation_search_rows r
        JOIN conversation_items i ON i.conversation_id = r.conversation_id AND i.id = r.item_id;
    `);
  },
};
