// Whether the store's content changed between two moments, without reading it: a backup of a
// store that did not change since the last generation can reuse that generation's copy instead of
// copying, cleaning and checking the whole file again (on a 434 MiB store, many seconds of disk).
//
// Content is every row except the records Sanad keeps of its own backups (runs, copies, alerts,
// the maintenance log): every backup writes those, so without leaving them out no two backups
// would ever find the same store. A mark is SQLite's total_changes() of the service's connection
// minus the changes made inside `asBookkeeping`, with the connection's data_version (which moves
// whenever any other connection commits, in this process or another) and the schema's version.
// Only what runs inside asBookkeeping is left out, so a write this misses can cost a copy, never
// hide a change; a mark lives as long as its connection (a restart copies again).
import type { Db } from './open.js';
import { cachedStatement } from './statements.js';

export interface ContentMark {
  readonly db: Db;
  readonly dataVersion: number;
  /** Moves with every change of the schema, which total_changes() does not count. */
  readonly schemaVersion: number;
  readonly changes: number;
}

/** Changes each connection made inside asBookkeeping: not content. */
const bookkept = new WeakMap<Db, number>();

// Read twice around every bookkeeping write: prepared once per connection.
const totalChangesOf = cachedStatement<[], { n: number }>('SELECT total_changes() AS n');

function totalChanges(db: Db): number {
  const n: unknown = totalChangesOf(db).get()?.n;
  if (typeof n !== 'number') throw new Error('SQLite did not answer total_changes() with a number.');
  return n;
}

/** Runs `fn` (synchronous writes to Sanad's records of its own backups) as not changing the content. */
export function asBookkeeping<T>(db: Db, fn: () => T): T {
  const before = totalChanges(db);
  try {
    return fn();
  } finally {
    bookkept.set(db, (bookkept.get(db) ?? 0) + totalChanges(db) - before);
  }
}

function pragmaNumber(db: Db, name: string): number {
  const n: unknown = db.pragma(name, { simple: true });
  if (typeof n !== 'number') throw new Error(`SQLite did not answer PRAGMA ${name} with a number.`);
  return n;
}

export function contentMark(db: Db): ContentMark {
  return {
    db,
    dataVersion: pragmaNumber(db, 'data_version'),
    schemaVersion: pragmaNumber(db, 'schema_version'),
    changes: totalChanges(db) - (bookkept.get(db) ?? 0),
  };
}

/** True only when both marks are of one connection and nothing but bookkeeping was written between them. */
export function sameContent(a: ContentMark, b: ContentMark): boolean {
  return a.db === b.db && a.db.open && a.dataVersion === b.dataVersion && a.schemaVersion === b.schemaVersion && a.changes === b.changes;
}
