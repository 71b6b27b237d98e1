// A response as it stands, and waiting for its task to end: what the foreground routes
// (/v1/responses, /v1/chat/completions) answer with.
import { emittedText, getResponseRow, getTask } from '../tasks/queries.js';
import { buildResponseObject, type ResponseObject } from '../tasks/response-object.js';
import { TERMINAL_EVENTS, type TaskRow } from '../tasks/types.js';
import type { ServiceContext } from './context.js';
import { notFound } from './errors.js';

/** The response object as it stands now (access already checked by the caller). */
export function currentResponse(ctx: ServiceContext, task: TaskRow): ResponseObject {
  const response = getResponseRow(ctx.db, task.response_id);
  if (!response) throw notFound(`Response ${task.response_id}`, 'response_not_found');
  return buildResponseObject(response, task, response.output_text ?? emittedText(ctx.db, task.id));
}

/** Waits for the task's terminal event and returns its response object. */
export function waitForTerminal(ctx: ServiceContext, task: TaskRow): { done: Promise<ResponseObject>; stop: () => void } {
  let stop = (): void => {};
  const done = new Promise<ResponseObject>((resolve) => {
    stop = ctx.hub.subscribe(task.id, (event) => {
      if (!TERMINAL_EVENTS.includes(event.type)) return;
      stop();
      resolve(currentResponse(ctx, getTask(ctx.db, task.id) ?? task));
    });
  });
  return { done, stop };
}
