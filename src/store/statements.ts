// Prepared once per connection: a read that runs on every request (the token lookup, the model a
// create names) must not pay SQLite's prepare each time (measured in bench/load.ts: preparing was a
// tenth of the accept path). Keyed by the connection, so a closed store's statements go with it.
import type { ReadableDB, ReadStatement } from './open.js';

export function cachedStatement<P extends unknown[], R>(sql: string): (db: ReadableDB) => ReadStatement<P, R> {
  const cache = new WeakMap<ReadableDB, ReadStatement<P, R>>();
  return (db) => {
    let statement = cache.get(db);
    if (!statement) {
      statement = db.prepare<P, R>(sql);
      cache.set(db, statement);
    }
    return statement;
  };
}
