// An idempotent answer names what it holds (a response, a conversation), so deleting that object
// forgets the stored answer too: the answer's body held the same text, and "deleted" must hold for
// every copy of it (store/idempotency-forget.ts). Older rows have none and expire with their TTL.
import type { Migration } from './migration.js';

export const idempotencySubjects: Migration = {
  version: 15,
  name: '0015-idempotency-subjects',
  up(db) {
    db.exec(`
      ALTER TABLE idempotency_keys ADD COLUMN subject_id TEXT;
      CREATE INDEX idempotency_subject ON idempotency_keys(subject_id) WHERE subject_id IS NOT NULL;
    `);
  },
};
