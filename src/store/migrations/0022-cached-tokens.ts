// Of a response's input, the tokens a kept context sequence already held and the engine did not
// evaluate again (OpenAI's usage.input_tokens_details.cached_tokens). Null for responses made
// before it was counted: they read as 0, as before.
import type { Migration } from './migration.js';

export const cachedTokens: Migration = {
  version: 22,
  name: '0022-cached-tokens',
  up(db) {
    db.exec('ALTER TABLE responses ADD COLUMN cached_tokens INTEGER;');
  },
};
