// 0010's index on tasks(status, updated_at) made the retention sweep a range search, but every task
// insert and transition paid for one more index. The sweep now searches tasks(updated_at), which
// already existed (tasks/retention.ts), so the extra index goes again.
import type { Migration } from './migration.js';

export const dropSweepIndex: Migration = {
  version: 11,
  name: '0011-drop-sweep-index',
  up(db) {
    db.exec('DROP INDEX IF EXISTS tasks_status_updated;');
  },
};
