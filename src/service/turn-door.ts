// What every generating door does around a turn in HTTP terms: a foreground request whose client
// hangs up before its answer is cancelled (and its Idempotency-Key let go, so the retry runs anew),
// and a turn that failed before the model began is answered as an HTTP error, never as a stream.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { isErrorCode } from '../contract/error-codes.js';
import type { ResponseObject } from '../contract/responses.js';
import type { TaskEvent } from '../tasks/types.js';
import { TurnError } from '../turns/errors.js';
import type { Turn } from '../turns/turn.js';
import type { ServiceContext } from './context.js';
import { ApiError } from './errors.js';
import { releaseReservation } from './idempotency.js';
import { streamTaskEvents } from './sse.js';

/** Cancels the turn if the connection closes before its answer was written in full. */
export function cancelWhenGone(ctx: ServiceContext, req: FastifyRequest, reply: FastifyReply, turn: Turn): void {
  reply.raw.once('close', () => {
    if (reply.raw.writableFinished) return;
    if (turn.leave() && req.idempotency) releaseReservation(ctx.writer, req.idempotency, true);
  });
}

/**
 * Waits until the model began; a failure before it is thrown (a TurnError, answered as a 4xx/5xx).
 * `params` renames the parameter it names to this door's own (Chat Completions has `messages`, not `input`).
 */
export async function startedOrError(req: FastifyRequest, turn: Turn, params: Record<string, string> = {}): Promise<void> {
  try {
    await turn.started();
  } catch (err) {
    // The key answers with this error from now on, not with the stream it was reserved for.
    if (req.idempotency) req.idempotency.completed = false;
    if (err instanceof TurnError && err.param !== null && params[err.param] !== undefined)
      throw new TurnError(err.code, params[err.param] ?? null, err.message);
    throw err;
  }
}

/**
 * Streams a foreground turn in a door's own shape. A stream is not replayed (its chunks are not kept
 * as one answer): a retry with the same key makes a new answer instead of waiting for a
 * reservation that never completes.
 */
export async function streamTurn(
  ctx: ServiceContext,
  req: FastifyRequest,
  reply: FastifyReply,
  turn: Turn,
  owner: string,
  render: (event: TaskEvent) => string | null,
): Promise<FastifyReply> {
  if (req.idempotency) releaseReservation(ctx.writer, req.idempotency);
  await streamTaskEvents(ctx, reply, turn.task, { after: 0, owner, render });
  void turn.finished();
  return reply;
}

/** A foreground turn's finished answer (completed, or cut short), or its end thrown as an HTTP error. */
export async function finishedOrError(turn: Turn, what: string): Promise<ResponseObject> {
  const finished = await turn.finished();
  if (finished.status === 'completed' || finished.status === 'incomplete') return finished;
  if (finished.status === 'cancelled') throw new ApiError('cancelled', `The ${what} was cancelled before it finished.`);
  const error = finished.error;
  throw new ApiError(error && isErrorCode(error.code) ? error.code : 'engine_error', error?.message ?? `The ${what} failed; see the service log.`, null);
}

/** The answer's text: every message part of a response, in order (what Chat Completions and Completions answer). */
export function answerTextOf(response: ResponseObject): string {
  return response.output.flatMap((item) => (item.type === 'message' ? item.content.map((part) => part.text) : [])).join('');
}
