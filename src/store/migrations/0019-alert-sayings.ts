// An alert's saying beside its English message: `{code, params}` as JSON, so the GUI words it in
// the reader's language (src/contract/said/). Rows from before stay null and show their message.
import type { Migration } from './migration.js';

export const alertSayings: Migration = {
  version: 19,
  name: '0019-alert-sayings',
  up(db) {
    db.exec('ALTER TABLE alerts ADD COLUMN said TEXT');
  },
};
