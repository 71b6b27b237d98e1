// What the untrusted-store worker answers, and the schema comparison it makes (kept apart from the
// worker's body so the comparison is tested on its own, in the test's thread).
import type Database from 'better-sqlite3';

export interface AdmissionRequest {
  path: string;
  /** 'sanad': must be a Sanad store of a known version; 'any': any undamaged SQLite file. */
  expect: 'sanad' | 'any';
  /** Also run integrity_check (a drill's job); a restore runs it later on the placed file anyway. */
  integrity: boolean;
}

export type AdmissionVerdict =
  | { ok: true; version: number; tables: number }
  | { ok: false; kind: 'not_sanad' | 'damaged' | 'timeout'; problem: string }
  | { ok: false; kind: 'too_new'; version: number; problem: string };

export interface SchemaObject {
  type: string;
  name: string;
  tbl_name: string;
  sql: string | null;
}

/** Every object of a store's schema, in a fixed order. Reading sqlite_schema runs none of them. */
export function schemaOf(db: Database.Database): SchemaObject[] {
  return db.prepare<[], SchemaObject>('SELECT type, name, tbl_name, sql FROM sqlite_schema ORDER BY type, name').all();
}

/** SQLite's own statistics tables: ANALYZE makes them, their DDL is SQLite's, never a store's. */
const SQLITE_STATS: Record<string, string> = {
  sqlite_stat1: 'CREATE TABLE sqlite_stat1(tbl,idx,stat)',
  sqlite_stat4: 'CREATE TABLE sqlite_stat4(tbl,idx,neq,nlt,ndlt,sample)',
};

/** Whitespace is not meaning: the same DDL typed with other line breaks is the same DDL. */
function normal(sql: string | null): string {
  return (sql ?? '').replace(/\s+/g, ' ').trim();
}

function describe(o: SchemaObject): string {
  return `${o.type} "${o.name}"`;
}

/**
 * Null when `found` is exactly `expected` (SQLite's statistics tables aside); otherwise the first
 * difference as a phrase: an extra view, trigger or table, a missing one, or one whose DDL differs.
 */
export function compareSchemas(found: SchemaObject[], expected: SchemaObject[]): string | null {
  const want = new Map(expected.map((o) => [`${o.type}:${o.name}`, o]));
  for (const o of found) {
    const stat = SQLITE_STATS[o.name];
    if (o.type === 'table' && stat !== undefined && normal(o.sql) === stat) continue;
    const w = want.get(`${o.type}:${o.name}`);
    if (!w) return `it has a ${describe(o)} that Sanad never makes`;
    if (w.tbl_name !== o.tbl_name || normal(w.sql) !== normal(o.sql)) return `its ${describe(o)} is not the one Sanad makes`;
    want.delete(`${o.type}:${o.name}`);
  }
  const missing = [...want.values()][0];
  return missing ? `it lacks the ${describe(missing)}` : null;
}
