// The Responses API's item and content-part events around the text, so the official SDK's stream
// helpers (which build the output from them) work unchanged. One assistant message, one text part,
// then the function calls, each added, its arguments, done.
import type { Db } from '../store/open.js';
import type { EventSpec } from './ledger.js';
import { getResponseRow } from './queries.js';
import type { FunctionCallItem } from '../contract/responses.js';
import { answersWithMessage } from './items.js';
import { parseRequest } from './response-object.js';
import type { TaskRow } from './types.js';

const part = (text: string): Record<string, unknown> => ({ type: 'output_text', text, annotations: [], logprobs: [] });

function message(itemId: string, status: string, text: string | null): Record<string, unknown> {
  return { id: itemId, type: 'message', status, role: 'assistant', content: text === null ? [] : [part(text)] };
}

/** Generation begins: `response.in_progress`, then the empty message and its empty text part. */
export function startEvents(db: Db, task: TaskRow): EventSpec[] {
  const row = getResponseRow(db, task.response_id);
  const itemId = row?.item_id ?? null;
  const events: EventSpec[] = [{ type: 'response.in_progress', withResponse: true }];
  // A forced call answers with the call alone: no message opens.
  if (itemId === null || !row || !answersWithMessage(parseRequest(row))) return events;
  return [
    ...events,
    { type: 'response.output_item.added', fields: { output_index: 0, item: message(itemId, 'in_progress', null) } },
    { type: 'response.content_part.added', fields: { item_id: itemId, output_index: 0, content_index: 0, part: part('') } },
  ];
}

/** Generation finished: the whole text, then the part and the message closed. */
export function textDoneEvents(itemId: string, text: string): EventSpec[] {
  return [
    { type: 'response.output_text.done', fields: { item_id: itemId, output_index: 0, content_index: 0, text, logprobs: [] } },
    { type: 'response.content_part.done', fields: { item_id: itemId, output_index: 0, content_index: 0, part: part(text) } },
    { type: 'response.output_item.done', fields: { output_index: 0, item: message(itemId, 'completed', text) } },
  ];
}

/**
 * The calls, after the message (if there is one): each added, its arguments in one delta, done.
 * They are written with the completion, in its transaction, so no half call is ever stored.
 */
export function callEvents(calls: readonly FunctionCallItem[], firstIndex: number): EventSpec[] {
  return calls.flatMap((call, i): EventSpec[] => {
    const output_index = firstIndex + i;
    return [
      { type: 'response.output_item.added', fields: { output_index, item: { ...call, arguments: '', status: 'in_progress' } } },
      { type: 'response.function_call_arguments.delta', fields: { item_id: call.id, output_index, delta: call.arguments } },
      { type: 'response.function_call_arguments.done', fields: { item_id: call.id, output_index, name: call.name, arguments: call.arguments } },
      { type: 'response.output_item.done', fields: { output_index, item: call } },
    ];
  });
}
