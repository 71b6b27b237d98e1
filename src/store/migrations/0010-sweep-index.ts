// The retention sweep (tasks/retention.ts) asks for terminal tasks older than a cutoff at every
// start and every hour. With only (status, id) to go on, SQLite walks every terminal task's index
// entry and row to test updated_at: a million finished tasks read on each start. (status,
// updated_at) makes it a range search that touches only what it deletes.
import type { Migration } from './migration.js';

export const sweepIndex: Migration = {
  version: 10,
  name: '0010-sweep-index',
  up(db) {
    db.exec('CREATE INDEX tasks_status_updated ON tasks(status, updated_at);');
  },
};
