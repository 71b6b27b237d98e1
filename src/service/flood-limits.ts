// One client must not wear the service down. Each client (or the GUI session) may hold at most
// `max_streams_per_client` event streams open and `max_queued_tasks_per_client` tasks waiting;
// past that the answer is 429 rate_limited with Retry-After. All streams share one heartbeat
// timer, and a reader that falls more than MAX_BUFFERED_BYTES behind is dropped (it reconnects
// with Last-Event-ID and resumes), so a slow reader cannot make the service buffer without bound.
import type { ServerResponse } from 'node:http';
import type { ServiceContext } from './context.js';
import { ApiError } from './errors.js';

export const HEARTBEAT_MS = 15_000;
export const MAX_BUFFERED_BYTES = 1024 * 1024;

const tooMany = (what: string, limit: number, setting: string, retryS: number): ApiError =>
  new ApiError('rate_limited', `This client already has ${limit} ${what} (the ${setting} setting); close one or wait, then try again.`, null, {
    'retry-after': String(retryS),
  });

const open = new WeakMap<ServiceContext, Map<string, number>>();
/** How to end each open stream, by owner: a revoked client's streams end with its token. */
const enders = new WeakMap<ServiceContext, Map<string, Set<() => void>>>();

/** Ends every open stream of `owner` (a client just revoked); returns how many. */
export function endStreamsOf(ctx: ServiceContext, owner: string): number {
  const set = enders.get(ctx)?.get(owner);
  if (!set) return 0;
  const all = [...set];
  for (const end of all) end();
  return all.length;
}

/** Registers `end` to be called by endStreamsOf(ctx, key) as well (a GUI session's streams end at
 *  its sign-out); the returned function unregisters it. */
export function endWith(ctx: ServiceContext, key: string, end: () => void): () => void {
  let byOwner = enders.get(ctx);
  if (byOwner === undefined) {
    byOwner = new Map();
    enders.set(ctx, byOwner);
  }
  const ends = byOwner.get(key) ?? new Set<() => void>();
  byOwner.set(key, ends);
  ends.add(end);
  const map = byOwner;
  return () => {
    ends.delete(end);
    if (ends.size === 0) map.delete(key);
  };
}

/** Claims one stream slot for `owner`, or throws 429; the returned function gives it back (once).
 *  `end` is how endStreamsOf ends this stream. */
export function claimStream(ctx: ServiceContext, owner: string, end?: () => void): () => void {
  let counts = open.get(ctx);
  if (counts === undefined) {
    counts = new Map();
    open.set(ctx, counts);
  }
  const limit = ctx.settings().max_streams_per_client;
  const now = counts.get(owner) ?? 0;
  if (now >= limit) throw tooMany('event streams open', limit, 'max_streams_per_client', 5);
  counts.set(owner, now + 1);
  const unregister = end ? endWith(ctx, owner, end) : (): void => undefined;
  let released = false;
  const map = counts;
  return () => {
    if (released) return;
    released = true;
    unregister();
    const n = (map.get(owner) ?? 1) - 1;
    if (n <= 0) map.delete(owner);
    else map.set(owner, n);
  };
}

/** Throws the same 429 as claimStream would, without claiming: checked before a streamed create makes its task. */
export function assertStreamRoom(ctx: ServiceContext, owner: string): void {
  claimStream(ctx, owner)();
}

export function openStreams(ctx: ServiceContext, owner: string): number {
  return open.get(ctx)?.get(owner) ?? 0;
}

/** Throws 429 when `clientId` (null: the GUI session / an admin without a client) already has the limit of tasks waiting. */
export function checkQueuedTasks(ctx: ServiceContext, clientId: string | null): void {
  const limit = ctx.settings().max_queued_tasks_per_client;
  // The ledger's count, not a COUNT(*) over the tasks table: counting the queued rows cost a scan
  // of every waiting task on every create (quadratic under load; measured in bench/load.ts).
  if (ctx.ledger.queuedFor(clientId) >= limit) throw tooMany('tasks waiting', limit, 'max_queued_tasks_per_client', 10);
}

/** The one heartbeat timer for every open stream. */
const beating = new Set<ServerResponse>();
let timer: NodeJS.Timeout | null = null;

export function heartbeatFor(res: ServerResponse): () => void {
  beating.add(res);
  if (timer === null) {
    timer = setInterval(() => {
      for (const r of beating) writeOrDrop(r, ': heartbeat\n\n');
    }, HEARTBEAT_MS);
    timer.unref();
  }
  return () => {
    beating.delete(res);
    if (beating.size === 0 && timer !== null) {
      clearInterval(timer);
      timer = null;
    }
  };
}

export function heartbeatsRunning(): { streams: number; timers: number } {
  return { streams: beating.size, timers: timer === null ? 0 : 1 };
}

/** Writes, or drops a reader that is more than MAX_BUFFERED_BYTES behind; false when dropped. */
export function writeOrDrop(res: ServerResponse, chunk: string): boolean {
  if (res.destroyed || res.writableEnded) return false;
  if (res.writableLength > MAX_BUFFERED_BYTES) {
    res.destroy();
    return false;
  }
  res.write(chunk);
  return true;
}
