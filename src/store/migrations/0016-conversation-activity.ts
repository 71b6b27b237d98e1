// When a conversation last changed (`updated_at`: its newest item, or its creation), so the GUI's
// list can show "last message" and put the conversation a person used last at the top without
// reading every item. Kept by the one writer of conversations (tasks/conversations.ts); older rows
// take it from their items here.
import type { Migration } from './migration.js';

export const conversationActivity: Migration = {
  version: 16,
  name: '0016-conversation-activity',
  up(db) {
    db.exec(`
      ALTER TABLE conversations ADD COLUMN updated_at INTEGER;
      UPDATE conversations SET updated_at = coalesce(
        (SELECT MAX(i.created_at) FROM conversation_items i WHERE i.conversation_id = conversations.id), created_at);
      CREATE INDEX conversations_activity ON conversations(updated_at DESC, id DESC);
    `);
  },
};
