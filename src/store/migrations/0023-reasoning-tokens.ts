// Of a response's output, the tokens a reasoning model spent thinking (OpenAI's
// usage.output_tokens_details.reasoning_tokens). The thinking itself is a reasoning item, kept
// in output_items beside the calls. Null for responses from before: they read as 0.
import type { Migration } from './migration.js';

export const reasoningTokens: Migration = {
  version: 23,
  name: '0023-reasoning-tokens',
  up(db) {
    db.exec('ALTER TABLE responses ADD COLUMN reasoning_tokens INTEGER;');
  },
};
