// What the person said about an alert: accepted (a known, deliberate condition such as the secrets
// file on a server: it stays listed but no longer makes the Overview say "Needs attention") or
// snoozed until a time. Kept apart from `alerts` because some alerts are live facts of a start
// (the secrets file, the disk) that are never stored as rows; a key's acknowledgement is dropped
// when its alert resolves, so the next occurrence is news again.
import type { Migration } from './migration.js';

export const alertAcks: Migration = {
  version: 18,
  name: '0018-alert-acks',
  up(db) {
    db.exec(`
      CREATE TABLE alert_acks (
        key TEXT PRIMARY KEY,
        accepted_at INTEGER,
        snoozed_until INTEGER,
        updated_at INTEGER NOT NULL,
        CHECK (accepted_at IS NOT NULL OR snoozed_until IS NOT NULL)
      );
    `);
  },
};
