// Server-sent events for a task: replay what is stored after a sequence number, then follow live
// events until the terminal one. Live events that arrive while the replay reads the store are
// held back and de-duplicated by sequence number, so the stream has no gap and no repeat.
import type { FastifyReply } from 'fastify';
import { LMSP_ONLY_EVENT_TYPES } from '../contract/responses.js';
import type { ServiceContext } from './context.js';
import { claimStream, heartbeatFor, writeOrDrop } from './flood-limits.js';
import { eventRowsAfter, getTask, toTaskEvent } from '../tasks/queries.js';
import { isTerminal, TERMINAL_EVENTS, type TaskEvent, type TaskRow } from '../tasks/types.js';

const PAGE = 500;

export interface StreamOptions {
  after: number;
  /** Whose stream this is (principalKey): counted against max_streams_per_client. */
  owner: string;
  headers?: Record<string, string>;
  /**
   * 'responses' (what OpenAI's clients read): only OpenAI's event types with their fields. 'task'
   * (the default; also the Responses stream of a client that sent `LMSP-Events: all`): every event as stored.
   */
  view?: 'responses' | 'task';
  /**
   * Writes each event in another API's own framing instead (Chat Completions' data-only chunks):
   * the text to send for it, or null for none. Overrides `view`.
   */
  render?: (event: TaskEvent) => string | null;
}

const TEXT_EVENTS: readonly string[] = ['response.output_text.delta', 'response.output_text.done'];

function responseStatusOf(event: TaskEvent): unknown {
  const response = event.response;
  return typeof response === 'object' && response !== null && 'status' in response ? response.status : undefined;
}

/**
 * One event of the task's log as the Responses stream shows it, or null when it has no place there.
 * OpenAI ends an answer cut short by its token limit with `response.incomplete`, and has no event
 * for LMSP's loading and cancelling; a cancelled response ends with `response.incomplete` too (its
 * `response.status` says `cancelled`), so the SDKs' stream helpers see a terminal event they know.
 */
export function forResponsesStream(event: TaskEvent): TaskEvent | null {
  if (TEXT_EVENTS.includes(event.type) && !('logprobs' in event)) return { ...event, logprobs: [] };
  if (event.type === 'response.completed' && responseStatusOf(event) === 'incomplete') return { ...event, type: 'response.incomplete' };
  if (LMSP_ONLY_EVENT_TYPES.includes(event.type)) return event.type === 'response.cancelled' ? { ...event, type: 'response.incomplete' } : null;
  // A restart's re-queue from an older store carries no response object, which the SDKs require.
  if (event.type === 'response.queued' && !('response' in event)) return null;
  return event;
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

  const view = options.view ?? 'task';
  const framed = (event: TaskEvent): string | null => {
    const shown = view === 'responses' ? forResponsesStream(event) : event;
    return shown === null ? null : formatSse(shown);
  };
  return new Promise((resolve) => {
    let last = options.after;
    let replaying = true;
    let finished = false;
    const held: TaskEvent[] = [];
    let corked = false;

    const finish = (): void => {
      if (finished) return;
      finished = true;
      unsubscribe();
      stopHeartbeat();
      release();
      if (!res.writableEnded) res.end();
      resolve();
    };
    // Events are committed before they arrive here, but shown only once that commit is on the
    // disk (store/durable-commits.ts): a client never reads what a power cut could take back.
    let outgoing: TaskEvent[] = [];
    let draining = false;
    let endWhenShown = false;
    const write = (event: TaskEvent): void => {
      if (finished) return;
      outgoing.push(event);
      if (draining) return;
      draining = true;
      void drain();
    };
    const drain = async (): Promise<void> => {
      while (outgoing.length > 0 && !finished) {
        const batch = outgoing;
        outgoing = [];
        try {
          await ctx.durable.settled();
        } catch {
          // The store can no longer promise anything (its fsync failed): end the stream, so the
          // client resumes (and hears the error) instead of reading text that may not be kept.
          finish();
          break;
        }
        for (const event of batch) show(event);
      }
      draining = false;
      if (endWhenShown) finish();
    };
    const show = (event: TaskEvent): void => {
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
      const terminal = TERMINAL_EVENTS.includes(event.type);
      const text = options.render ? options.render(event) : framed(event);
      // A reader too far behind is dropped ('close' then ends this stream); it may resume later.
      if (text !== null && !writeOrDrop(res, text)) return;
      if (terminal) finish();
    };
    const unsubscribe = ctx.hub.subscribe(task.id, (event) => (replaying ? held.push(event) : write(event)));
    const stopHeartbeat = heartbeatFor(res);
    res.on('close', () => finish());

    // Its own cursor: `last` moves only as events are shown, after their fsync.
    let read = last;
    for (;;) {
      const rows = eventRowsAfter(ctx.db, task.id, read, PAGE);
      for (const row of rows) write(toTaskEvent(row, task.response_id));
      read = rows.at(-1)?.sequence_number ?? read;
      if (rows.length < PAGE || finished) break;
    }
    replaying = false;
    for (const event of held.sort((a, b) => a.sequence_number - b.sequence_number)) write(event);
    // Resumed at or past the terminal event (or the task is gone): nothing more will ever come,
    // so end now instead of idling on heartbeats forever.
    const current = getTask(ctx.db, task.id);
    if (!current || isTerminal(current.status)) {
      if (draining) endWhenShown = true;
      else finish();
    }
  });
}
