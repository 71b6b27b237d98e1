// Model pulls become runs like backups and restores: a pull's record, progress and end are its run's
// (kind `pull`), so the Overview, the tray and GET /admin/runs show a download like any other work.
// `model_pulls` keeps what only a pull has (its URL, file, hash, bytes so far) and names its run.
// A pull's run is the one kind a stop leaves open: the next start resumes the download under it.
//
// As in 0027, `runs` is made again to widen its kind CHECK, its details waiting in stashes. Each
// table and index comes back from its own stored definition, so nothing else about them changes.
import type { Migration } from './migration.js';

const DETAILS = ['backup_details', 'drill_details', 'restore_details', 'backup_copies'] as const;
const TABLES = ['runs', ...DETAILS] as const;
const OLD_KINDS = "'backup','drill','restore','maintenance','offsite-copy'";

export const pullRuns: Migration = {
  version: 28,
  name: '0028-pull-runs',
  up(db) {
    const definition = (type: 'table' | 'index', name: string): string => {
      const row = db.prepare<[string, string], { sql: string }>('SELECT sql FROM sqlite_master WHERE type = ? AND name = ?').get(type, name);
      if (!row) throw new Error(`migration 28: no ${type} ${name} to make again`);
      return row.sql;
    };
    const tables = new Map(TABLES.map((t) => [t, definition('table', t)]));
    const indexes = db
      .prepare<[], { sql: string }>(
        `SELECT sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL AND tbl_name IN (${TABLES.map((t) => `'${t}'`).join(',')})`,
      )
      .all()
      .map((r) => r.sql);
    const runs = tables.get('runs') ?? '';
    if (!runs.includes(OLD_KINDS)) throw new Error('migration 28: the runs kinds are not the ones 0027 made');
    for (const t of [...DETAILS, 'runs']) db.exec(`CREATE TABLE ${t}_stash AS SELECT * FROM ${t}; DROP TABLE ${t};`);
    db.exec(runs.replace(OLD_KINDS, `${OLD_KINDS},'pull'`));
    for (const t of DETAILS) db.exec(tables.get(t) ?? '');
    for (const t of ['runs', ...DETAILS]) db.exec(`INSERT INTO ${t} SELECT * FROM ${t}_stash; DROP TABLE ${t}_stash;`);
    for (const sql of indexes) db.exec(sql);
    // No foreign key: a pull's row and its run are pruned each by their own owner, and a row whose
    // run went reads as a pull without one (the 50 newest of each are kept alike).
    db.exec('ALTER TABLE model_pulls ADD COLUMN run_id INTEGER');
  },
};
