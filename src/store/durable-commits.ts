// Commits on the event loop, fsync off it. The service's connection commits with
// synchronous = NORMAL: a commit is written to the WAL (the OS's cache holds it, so a killed
// process loses nothing) without waiting for the disk. What makes it survive a power cut is the
// fsync of the WAL file, which runs here on libuv's thread pool, where the loop does not wait for
// it; many commits share one fsync. Nothing is shown to anyone before the fsync that covers it has
// ended: every HTTP answer and every streamed event waits for `settled()` (LMSP §11.2: the 202
// follows a durable commit). That is what synchronous = FULL did, with the fsync on the loop.
//
// Why not a writer thread: every owner of state writes synchronously (the ledger's
// compare-and-set is one synchronous transaction), and the profile of the accept path showed the
// fsync, not the statements, holding the loop; moving the wait moves the cost without making each
// owner asynchronous. SQLite still fsyncs the WAL itself before a checkpoint and on its reuse.
import { closeSync, fsync, openSync } from 'node:fs';
import type { Statement } from 'better-sqlite3';
import type { Db } from './open.js';

/** The thread-pool fsync; tests pass one that counts or holds the real call. */
export type Fsync = (fd: number, done: (err: Error | null) => void) => void;

interface Waiter {
  upTo: number;
  resolve: () => void;
  reject: (err: Error) => void;
}

export class DurableCommits {
  private readonly changes: Statement<[], { n: number }>;
  /** Changes (SQLite's total_changes of this connection) the last finished fsync covered. */
  private durableUpTo: number;
  private syncing = false;
  private waiters: Waiter[] = [];
  private fd: number | null;
  private failure: Error | null = null;
  private idle: Array<() => void> = [];

  private constructor(db: Db, fd: number | null, private readonly doFsync: Fsync) {
    this.changes = db.prepare<[], { n: number }>('SELECT total_changes() AS n');
    this.fd = fd;
    this.durableUpTo = this.current();
  }

  /**
   * For the service's connection to the store at `path` (after openStore): switches it to
   * synchronous = NORMAL and holds the WAL file open for its fsyncs. A store without a WAL file
   * (in memory) keeps synchronous as it was and every commit counts as durable at once.
   */
  static attach(db: Db, path: string, doFsync: Fsync = fsync): DurableCommits {
    let fd: number | null = null;
    if (db.pragma('journal_mode', { simple: true }) === 'wal') {
      // A read opens (or creates) the WAL file; SQLite keeps it until its last connection closes.
      db.prepare('SELECT COUNT(*) FROM sqlite_master').get();
      fd = openSync(`${path}-wal`, 'r+');
      db.pragma('synchronous = NORMAL');
    }
    return new DurableCommits(db, fd, doFsync);
  }

  /** Resolves once every commit made before this call is on the disk; rejects if its fsync failed. */
  settled(): Promise<void> {
    if (this.failure) return Promise.reject(this.failure);
    if (this.fd === null) return Promise.resolve();
    const upTo = this.current();
    if (upTo <= this.durableUpTo) return Promise.resolve();
    return new Promise((resolve, reject) => {
      this.waiters.push({ upTo, resolve, reject });
      this.next();
    });
  }

  /**
   * Runs `fn` on a later turn of the loop, after the fsync in flight (if any) has ended: work that
   * commits in batches (new tasks) gathers everything that arrived meanwhile into one commit,
   * which the next fsync then covers whole.
   */
  afterSync(fn: () => void): void {
    if (this.syncing) this.idle.push(fn);
    else setImmediate(fn);
  }

  /** Waits for the fsync in flight (if any), then lets go of the WAL file: before the store closes. */
  async close(): Promise<void> {
    await this.settled().catch(() => undefined);
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
  }

  private current(): number {
    return this.changes.get()?.n ?? 0;
  }

  /** One fsync at a time; it covers every commit made before it started, and only those. */
  private next(): void {
    const fd = this.fd;
    if (this.syncing || this.waiters.length === 0 || fd === null) return;
    this.syncing = true;
    const covers = this.current();
    this.doFsync(fd, (err) => {
      this.syncing = false;
      for (const fn of this.idle.splice(0)) setImmediate(fn);
      const done = this.waiters.filter((w) => w.upTo <= covers);
      this.waiters = this.waiters.filter((w) => w.upTo > covers);
      if (err) {
        // After a failed fsync the kernel may have dropped the pages it could not write, and a
        // later fsync can succeed without them: no later answer may claim durability again.
        this.failure = new Error(`Sanad could not write its store to the disk (${err.message}); nothing since is saved. Check the disk, then restart Sanad.`);
        for (const w of [...done, ...this.waiters]) w.reject(this.failure);
        this.waiters = [];
        return;
      }
      this.durableUpTo = Math.max(this.durableUpTo, covers);
      for (const w of done) w.resolve();
      this.next();
    });
  }
}
