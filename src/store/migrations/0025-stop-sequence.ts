// Which of a request's stop texts ended its answer (Anthropic's `stop_sequence`); null when none
// did (the model ended it, or the limit cut it), and for responses from before.
import type { Migration } from './migration.js';

export const stopSequence: Migration = {
  version: 25,
  name: '0025-stop-sequence',
  up(db) {
    db.exec('ALTER TABLE responses ADD COLUMN stop_sequence TEXT;');
  },
};
