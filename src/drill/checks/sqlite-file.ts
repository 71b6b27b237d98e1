// A restored SQLite file looked at read-only: `PRAGMA integrity_check` and its table count. The file
// is a journal-mode DELETE copy (backups leave WAL mode), so a read-only open leaves nothing beside it.
import Database from 'better-sqlite3';

export type SqliteInspection = { ok: true; tables: number } | { ok: false; problem: string };

export function inspectSqlite(path: string): SqliteInspection {
  let db: Database.Database;
  try {
    db = new Database(path, { readonly: true, fileMustExist: true });
  } catch (error) {
    return { ok: false, problem: `it does not open as SQLite (${error instanceof Error ? error.message : String(error)})` };
  }
  try {
    const messages = db.prepare<[], { integrity_check: string }>('PRAGMA integrity_check').all().map((r) => r.integrity_check);
    if (messages.length !== 1 || messages[0] !== 'ok') return { ok: false, problem: `integrity_check: ${messages.slice(0, 3).join('; ')}` };
    const row = db.prepare<[], { n: number }>("SELECT count(*) AS n FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%'").get();
    return { ok: true, tables: row?.n ?? 0 };
  } catch (error) {
    // "database disk image is malformed" comes as an exception, not as integrity_check rows.
    return { ok: false, problem: error instanceof Error ? error.message : String(error) };
  } finally {
    db.close();
  }
}
