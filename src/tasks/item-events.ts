// The Responses API's item and content-part events around the text, so the official SDK's stream
// helpers (which build the output from them) work unchanged. A thinking model's reasoning item
// first (its one reasoning_text part), then one assistant message with one text part, then the
// function calls, each added, its arguments, done.
import type { Db } from '../store/open.js';
import type { EventSpec } from './ledger.js';
import { getResponseRow } from './queries.js';
import type { FunctionCallItem } from '../contract/responses.js';
import { answersWithMessage, itemNames, reasoningItem } from './items.js';
import { parseRequest } from './response-object.js';
import type { TaskRow } from './types.js';

const part = (text: string): Record<string, unknown> => ({ type: 'output_text', text, annotations: [], logprobs: [] });

function message(itemId: string, status: string, text: string | null): Record<string, unknown> {
  return { id: itemId, type: 'message', status, role: 'assistant', content: text === null ? [] : [part(text)] };
}

const reasoningPart = (text: string): Record<string, unknown> => ({ type: 'reasoning_text', text });

/**
 * Generation begins: `response.in_progress`, then the empty message and its empty text part; for a
 * model that thinks, the empty reasoning item instead (the message opens when the thought ends).
 */
export function startEvents(db: Db, task: TaskRow, thinks: boolean): EventSpec[] {
  const row = getResponseRow(db, task.response_id);
  const itemId = row?.item_id ?? null;
  const events: EventSpec[] = [{ type: 'response.in_progress', withResponse: true }];
  if (row && thinks) return [...events, ...reasoningOpenEvents(itemNames(row.id).reasoning)];
  // A forced call answers with the call alone: no message opens.
  if (itemId === null || !row || !answersWithMessage(parseRequest(row))) return events;
  return [...events, ...messageOpenEvents(itemId, 0)];
}

/** The empty message and its empty text part, at this place in the output. */
export function messageOpenEvents(itemId: string, outputIndex: number): EventSpec[] {
  return [
    { type: 'response.output_item.added', fields: { output_index: outputIndex, item: message(itemId, 'in_progress', null) } },
    { type: 'response.content_part.added', fields: { item_id: itemId, output_index: outputIndex, content_index: 0, part: part('') } },
  ];
}

/** The empty reasoning item (always first in the output) and its empty reasoning_text part. */
function reasoningOpenEvents(itemId: string): EventSpec[] {
  return [
    { type: 'response.output_item.added', fields: { output_index: 0, item: { ...reasoningItem(itemId, '', 'in_progress'), content: [] } } },
    { type: 'response.content_part.added', fields: { item_id: itemId, output_index: 0, content_index: 0, part: reasoningPart('') } },
  ];
}

/** The thought ended: its whole text, then the part and the reasoning item closed. */
export function reasoningDoneEvents(itemId: string, text: string): EventSpec[] {
  return [
    { type: 'response.reasoning_text.done', fields: { item_id: itemId, output_index: 0, content_index: 0, text } },
    { type: 'response.content_part.done', fields: { item_id: itemId, output_index: 0, content_index: 0, part: reasoningPart(text) } },
    { type: 'response.output_item.done', fields: { output_index: 0, item: reasoningItem(itemId, text, 'completed') } },
  ];
}

/** Generation finished: the whole text, then the part and the message closed. */
export function textDoneEvents(itemId: string, text: string, outputIndex = 0): EventSpec[] {
  return [
    { type: 'response.output_text.done', fields: { item_id: itemId, output_index: outputIndex, content_index: 0, text, logprobs: [] } },
    { type: 'response.content_part.done', fields: { item_id: itemId, output_index: outputIndex, content_index: 0, part: part(text) } },
    { type: 'response.output_item.done', fields: { output_index: outputIndex, item: message(itemId, 'completed', text) } },
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
