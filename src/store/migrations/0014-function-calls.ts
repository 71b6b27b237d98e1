// Function calls: an answer may be, or end with, calls to the client's functions. They are kept
// beside the answer's text as one JSON array (FunctionCallItem[]), written in the same
// transaction that completes the response, so a crash never leaves half a call. Their outputs
// come back as input items of a later turn and are kept with its request, like messages.
import type { Migration } from './migration.js';

export const functionCalls: Migration = {
  version: 14,
  name: '0014-function-calls',
  up(db) {
    db.exec('ALTER TABLE responses ADD COLUMN output_items TEXT;');
  },
};
