// CLI commands beside a running service share its store safely: SQLite WAL with a busy timeout
// serialises writers, and each command's writes are single short transactions.
import { makeDataDir } from '../appliance/data-dir.js';
import { openStore, type Db } from '../store/open.js';
import { storePath } from '../files/data-dir-layout.js';

export async function withStore<T>(dataDir: string, fn: (db: Db) => Promise<T> | T): Promise<T> {
  // As `sanad serve` makes it (0700), or one clear sentence on why it cannot be.
  makeDataDir(dataDir);
  const db = openStore(storePath(dataDir));
  try {
    return await fn(db);
  } finally {
    db.close();
  }
}
