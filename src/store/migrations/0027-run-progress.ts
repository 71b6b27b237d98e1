// A run's progress in its own record: what a running backup, drill or restore is doing, written
// (throttled) by the job owner, so the run is the one place to read it, in this process or another
// (the CLI following a service's run, the tray). Null while a run waits and once it ended.
import type { Migration } from './migration.js';

export const runProgress: Migration = {
  version: 27,
  name: '0027-run-progress',
  up(db) {
    db.exec('ALTER TABLE runs ADD COLUMN progress TEXT;');
  },
};
