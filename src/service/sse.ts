// Server-sent events for a task: replay what is stored after a sequence number, then follow live
// events until the terminal one. Live events that arrive while the replay reads the store are
// held back and de-duplicated by sequence number, so the stream has no gap and no repeat.
import type { FastifyReply } from 'fastify';
import type { ServiceContext } from './context.js';
import { claimStream, heartbeatFor, writeOrDrop } from './flood-limits.js';
import { eventRowsAfter, getTask, toTaskEvent } from '../tasks/queries.js';
import { isTerminal, TERMINAL_EVENTS, type TaskEvent, type TaskRow } from '../tasks/types.js';

const PAGE = 500;

export interface StreamOptions {
  after: number;
  /** Whose stream this is (principalKey): counted against max_streams_per_client. */
  owner: string;
  /** Called if the client goes away before the terminal event (foreground requests cancel). */
  onClientGone?: () => void;
  headers?: Record<string, string>;
}

export function formatSse(event: TaskEvent): string {
  return `id: ${event.sequence_number}\nevent: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`;
}

/** Takes over the reply and streams; resolves when the stream ends. */
export function streamTaskEvents(ctx: ServiceContext, reply: FastifyReply, task: TaskRow, options: StreamOptions): Promise<void> {
  // Before the reply is taken over, so a refusal is an ordinary 429 in the contract's shape.
  const res = reply.raw;
  // Ended by endStreamsOf when the owner is revoked: the connection goes, as if the client left.
  const release = claimStream(ctx, options.owner, () => res.destroy());
  reply.hijack();
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache, no-transform',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
    ...options.headers,
  });
  res.flushHeaders();

  return new Promise((resolve) => {
    let last = options.after;
    let replaying = true;
    let finished = false;
    const held: TaskEvent[] = [];
    let corked = false;

    const finish = (clientGone: boolean): void => {
      if (finished) return;
      finished = true;
      unsubscribe();
      stopHeartbeat();
      release();
      if (clientGone) options.onClientGone?.();
      if (!res.writableEnded) res.end();
      resolve();
    };
    const write = (event: TaskEvent): void => {
      if (finished || event.sequence_number <= last) return;
      last = event.sequence_number;
      // A group commit publishes many events in one tick: cork so they leave in one write.
      if (!corked) {
        corked = true;
        res.cork();
        process.nextTick(() => {
          corked = false;
          res.uncork();
        });
      }
      // A reader too far behind is dropped ('close' then ends this stream); it may resume later.
      if (!writeOrDrop(res, formatSse(event))) return;
      if (TERMINAL_EVENTS.includes(event.type)) finish(false);
    };
    const unsubscribe = ctx.hub.subscribe(task.id, (event) => (replaying ? held.push(event) : write(event)));
    const stopHeartbeat = heartbeatFor(res);
    res.on('close', () => finish(true));

    for (;;) {
      const rows = eventRowsAfter(ctx.db, task.id, last, PAGE);
      for (const row of rows) write(toTaskEvent(row, task.response_id));
      if (rows.length < PAGE || finished) break;
    }
    replaying = false;
    for (const event of held.sort((a, b) => a.sequence_number - b.sequence_number)) write(event);
    // Resumed at or past the terminal event (or the task is gone): nothing more will ever come,
    // so end now instead of idling on heartbeats forever.
    const current = getTask(ctx.db, task.id);
    if (!current || isTerminal(current.status)) finish(false);
  });
}
