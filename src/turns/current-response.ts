// A response object as it stands now: what a foreground door answers with, and GET /v1/responses/{id}.
import type { ReadableDB } from '../store/open.js';
import { emittedReasoning, emittedText, getResponseRow } from '../tasks/queries.js';
import { buildResponseObject, type ResponseObject } from '../tasks/response-object.js';
import type { TaskRow } from '../tasks/types.js';
import { TurnError } from './errors.js';

/** The response object of this task (access already checked by the caller). */
export function currentResponse(db: ReadableDB, task: TaskRow): ResponseObject {
  const response = getResponseRow(db, task.response_id);
  if (!response) throw new TurnError('response_not_found', null, `Response ${task.response_id} was not found.`);
  const thought = response.output_text === null ? emittedReasoning(db, task.id) : '';
  return buildResponseObject(response, task, response.output_text ?? emittedText(db, task.id), thought);
}
