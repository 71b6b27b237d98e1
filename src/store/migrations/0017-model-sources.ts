// Where a model came from and how it runs. `source_*`: a model pulled from a hub (or a URL) keeps
// its URI, the resolved download URL, the hub's revision and the sha256 it was verified against,
// so a backup may leave its bytes out and a restore pull it again. `backup`: 'include' (the bytes
// go into every generation, the default: a restore must work with no network) or 'source' (only
// the source). Per-model run settings are NULL until set (the engine's defaults apply).
// `model_pulls`: one row per download, so a pull cut by a crash or a stop resumes at the next start.
import type { Migration } from './migration.js';

export const modelSources: Migration = {
  version: 17,
  name: '0017-model-sources',
  up(db) {
    db.exec(`
      ALTER TABLE models ADD COLUMN source_uri TEXT;
      ALTER TABLE models ADD COLUMN source_url TEXT;
      ALTER TABLE models ADD COLUMN source_revision TEXT;
      ALTER TABLE models ADD COLUMN backup TEXT NOT NULL DEFAULT 'include' CHECK (backup IN ('include', 'source'));
      ALTER TABLE models ADD COLUMN context_size INTEGER;
      ALTER TABLE models ADD COLUMN gpu_layers TEXT;
      ALTER TABLE models ADD COLUMN temperature REAL;
      ALTER TABLE models ADD COLUMN max_output_tokens INTEGER;
      CREATE TABLE model_pulls (
        id TEXT PRIMARY KEY,
        uri TEXT NOT NULL,
        url TEXT NOT NULL,
        file_name TEXT NOT NULL,
        model_id TEXT NOT NULL,
        size_bytes INTEGER NOT NULL,
        sha256 TEXT,
        revision TEXT,
        status TEXT NOT NULL CHECK (status IN ('running', 'done', 'failed', 'cancelled')),
        error TEXT,
        downloaded_bytes INTEGER NOT NULL DEFAULT 0,
        created_at INTEGER NOT NULL,
        finished_at INTEGER
      );
      CREATE UNIQUE INDEX model_pulls_one_running ON model_pulls(url) WHERE status = 'running';
    `);
  },
};
