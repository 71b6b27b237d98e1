// What each backup copy put into its repository, as Sanad itself sent it: the generation's manifest
// (on the run) and the snapshot's paths, host and time (on the copy). A restore on this machine
// reads them instead of asking restic for its snapshot list and manifest, two restic starts of
// ~0.6 s each; restic still proves the snapshot exists and the restored manifest must match.
import type { Migration } from './migration.js';

export const snapshotRecords: Migration = {
  version: 9,
  name: '0009-snapshot-records',
  up(db) {
    db.exec(`
      ALTER TABLE backup_runs ADD COLUMN manifest TEXT;
      ALTER TABLE backup_copies ADD COLUMN snapshot TEXT;
    `);
  },
};
