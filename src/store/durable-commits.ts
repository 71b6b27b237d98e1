// Commits on the event loop, fsync off it. The service's connection commits with
// synchronous = NORMAL: a commit is written to the WAL (the OS's cache holds it, so a killed
// process loses nothing) without waiting for the disk. What makes it survive a power cut is the
// fsync of the WAL file, which runs here on libuv's thread pool, where the loop does not wait for
// it; many commits share one fsync, and up to two run at once (see next()). Nothing is shown to anyone before the fsync that covers it has
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

/** Fsyncs in flight at once: a second covers what arrived during the first. */
const MAX_IN_FLIGHT = 2;

export class DurableCommits {
  private readonly changes: Statement<[], { n: number }>;
  /** Changes (SQLite's total_changes of this connection) the last finished fsync covered. */
  private durableUpTo: number;
  /** What each fsync in flight covers (at most MAX_IN_FLIGHT of them). */
  private inFlight: number[] = [];
  private waiters: Waiter[] = [];
  /** The WAL file, opened once per fsync that may be in flight (empty: no WAL). Each fsync has a
   *  file description of its own: Linux reports a write error to each description once, so an
   *  fsync on its own description cannot succeed over an error another fsync was told of. */
  private fds: number[];
  private free: number[];
  private failure: Error | null = null;
  private idle: Array<() => void> = [];

  private constructor(
    db: Db,
    fds: number[],
    private readonly doFsync: Fsync,
  ) {
    this.changes = db.prepare<[], { n: number }>('SELECT total_changes() AS n');
    this.fds = fds;
    this.free = [...fds];
    this.durableUpTo = this.current();
  }

  /**
   * For the service's connection to the store at `path` (after openStore): switches it to
   * synchronous = NORMAL and holds the WAL file open for its fsyncs. A store without a WAL file
   * (in memory) keeps synchronous as it was and every commit counts as durable at once.
   */
  static attach(db: Db, path: string, doFsync: Fsync = fsync): DurableCommits {
    const fds: number[] = [];
    if (db.pragma('journal_mode', { simple: true }) === 'wal') {
      // A read opens (or creates) the WAL file; SQLite keeps it until its last connection closes.
      db.prepare('SELECT COUNT(*) FROM sqlite_master').get();
      for (let i = 0; i < MAX_IN_FLIGHT; i++) fds.push(openSync(`${path}-wal`, 'r+'));
      db.pragma('synchronous = NORMAL');
    }
    return new DurableCommits(db, fds, doFsync);
  }

  /** Resolves once every commit made before this call is on the disk; rejects if its fsync failed. */
  settled(): Promise<void> {
    if (this.failure) return Promise.reject(this.failure);
    if (this.fds.length === 0) return Promise.resolve();
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
    if (this.inFlight.length > 0) this.idle.push(fn);
    else setImmediate(fn);
  }

  /** Waits for the fsync in flight (if any), then lets go of the WAL file: before the store closes. */
  async close(): Promise<void> {
    await this.settled().catch(() => undefined);
    for (const fd of this.fds) closeSync(fd);
    this.fds = [];
    this.free = [];
  }

  private current(): number {
    return this.changes.get()?.n ?? 0;
  }

  /**
   * Starts an fsync for the waiters no fsync in flight covers, up to two at a time. An fsync covers
   * every commit made before it started: Linux's fsync also waits for pages an earlier fsync is
   * still writing, so a commit made during one fsync need not wait for it to end and for another
   * after it, only for the one it starts (one fsync of latency, not up to two, for each event).
   */
  private next(): void {
    const fd = this.free[0];
    if (fd === undefined || this.failure) return;
    const coveredSoon = Math.max(this.durableUpTo, ...this.inFlight);
    if (!this.waiters.some((w) => w.upTo > coveredSoon)) return;
    const covers = this.current();
    this.inFlight.push(covers);
    this.free.shift();
    this.doFsync(fd, (err) => {
      this.inFlight.splice(this.inFlight.indexOf(covers), 1);
      this.free.push(fd);
      for (const fn of this.idle.splice(0)) setImmediate(fn);
      if (err) {
        // After a failed fsync the kernel may have dropped the pages it could not write, and a
        // later fsync can succeed without them: no later answer may claim durability again.
        this.failure ??= new Error(`Sanad could not write its store to the disk (${err.message}); nothing since is saved. Check the disk, then restart Sanad.`);
        for (const w of this.waiters) w.reject(this.failure);
        this.waiters = [];
        return;
      }
      // A late fsync that covers less than one that ended before it changes nothing.
      this.durableUpTo = Math.max(this.durableUpTo, covers);
      const done = this.waiters.filter((w) => w.upTo <= this.durableUpTo);
      this.waiters = this.waiters.filter((w) => w.upTo > this.durableUpTo);
      for (const w of done) w.resolve();
      this.next();
    });
  }
}
