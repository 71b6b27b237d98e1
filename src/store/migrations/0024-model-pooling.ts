// How a model pools its output into one vector, from its GGUF header (`<arch>.pooling_type`): a
// model that declares one is an embedding model, which makes vectors, not text. Null for a model
// without (a generative one) and for models registered before this column, read as generative.
import type { Migration } from './migration.js';

export const modelPooling: Migration = {
  version: 24,
  name: '0024-model-pooling',
  up(db) {
    db.exec('ALTER TABLE models ADD COLUMN pooling TEXT;');
  },
};
