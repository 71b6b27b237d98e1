// The Responses API's item and content-part events around the text, so the official SDK's stream
// helpers (which build the output from them) work unchanged. One assistant message, one text part.
import type { Db } from '../store/open.js';
import type { EventSpec } from './ledger.js';
import { getResponseRow } from './queries.js';
import type { TaskRow } from './types.js';

const part = (text: string): Record<string, unknown> => ({ type: 'output_text', text, annotations: [], logprobs: [] });

function message(itemId: string, status: string, text: string | null): Record<string, unknown> {
  return { id: itemId, type: 'message', status, role: 'assistant', content: text === null ? [] : [part(text)] };
}

/** Generation begins: `response.in_progress`, then the empty message and its empty text part. */
export function startEvents(db: Db, task: TaskRow): EventSpec[] {
  const itemId = getResponseRow(db, task.response_id)?.item_id ?? null;
  const events: EventSpec[] = [{ type: 'response.in_progress', withResponse: true }];
  if (itemId === null) return events;
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
