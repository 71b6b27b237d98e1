// `PRAGMA integrity_check` and the table count of an open SQLite connection: what the backup's
// store copy (scrub-worker.ts) and a restored store (integrity-worker.ts) are both checked for.
// Called only inside worker threads: the check reads every page.
import type Database from 'better-sqlite3';

/** `damage`: the first integrity_check messages when it did not answer "ok", else null. */
export function integrityOf(db: Database.Database): { damage: string | null; tables: number } {
  const found = db
    .prepare<[], { integrity_check: string }>('PRAGMA integrity_check')
    .all()
    .map((r) => r.integrity_check);
  const damage = found.length === 1 && found[0] === 'ok' ? null : found.slice(0, 3).join('; ');
  const tables = db.prepare<[], { n: number }>("SELECT count(*) AS n FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%'").get()?.n ?? 0;
  return { damage, tables };
}
