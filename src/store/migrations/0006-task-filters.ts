// Indexes for the task list's filters (GET /v1/tasks?model=…&status=…, the GUI's Tasks screen):
// newest first by id, so each filter needs an index that ends in id. `tasks_status (status, id)`
// from 0001 serves the status filter; these serve the model filter alone and both together, so a
// page stays a short index walk with 100,000 tasks instead of a scan of the table.
import type { Migration } from './migration.js';

export const taskFilters: Migration = {
  version: 6,
  name: '0006-task-filters',
  up(db) {
    db.exec(`
      CREATE INDEX tasks_model ON tasks(model, id);
      CREATE INDEX tasks_status_model ON tasks(status, model, id);
    `);
  },
};
