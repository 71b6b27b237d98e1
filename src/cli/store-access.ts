// CLI commands beside a running service share its store safely: SQLite WAL with a busy timeout
// serialises writers, and each command's writes are single short transactions.
import { openStore, storePath, type Db } from '../store/open.js';

export async function withStore<T>(dataDir: string, fn: (db: Db) => Promise<T> | T): Promise<T> {
  const db = openStore(storePath(dataDir));
  try {
    return await fn(db);
  } finally {
    db.close();
  }
}
