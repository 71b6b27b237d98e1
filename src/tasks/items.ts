// Items: the messages of a turn as Sanad keeps them (each with its id), made from what a client
// sent, read back from older stores, and turned into the chat the engine runs.
import type { ContentPart, InputMessage, MessageItem, OutputMessage, TextPart } from '../contract/responses.js';
import type { ChatMessage } from '../engine/engine.js';
import type { LegacyMessage, ResponseRequest, ResponseRow } from './types.js';

function textOfPart(part: ContentPart): string {
  return part.type === 'refusal' ? part.refusal : part.text;
}

/**
 * The ids of a new response's items, named after it: `resp_<S>` answers as `msg_<S>` and its own
 * input items are `msg_<S>_<n>`, so an `item_reference` finds either with a primary-key read.
 */
export function itemNames(responseId: string): { answer: string; input: (position: number) => string } {
  const stem = responseId.slice('resp_'.length);
  return { answer: `msg_${stem}`, input: (position) => `msg_${stem}_${position}` };
}

/** Where an item named by itemNames lives: its response, and for an input item its position. */
export function itemOwner(itemId: string): { responseId: string; position: number | null } | null {
  const m = /^msg_([0-9a-z]+)(?:_(\d+))?$/.exec(itemId);
  if (!m?.[1]) return null;
  return { responseId: `resp_${m[1]}`, position: m[2] === undefined ? null : Number(m[2]) };
}

/** A message as sent, kept: its own id, or '' for one the store names (itemNames, or a conversation's new id). */
export function keptMessage(m: InputMessage): MessageItem {
  const partType = m.role === 'assistant' ? 'output_text' : 'input_text';
  const content: TextPart[] =
    typeof m.content === 'string' ? [{ type: partType, text: m.content }] : m.content.map((p) => ({ type: p.type === 'input_text' ? 'input_text' : 'output_text', text: textOfPart(p) }));
  return { type: 'message', id: m.id ?? '', status: m.status ?? 'completed', role: m.role, content };
}

function isLegacy(m: MessageItem | LegacyMessage): m is LegacyMessage {
  return typeof m.content === 'string';
}

/** A stored request's own input as items; requests from before conversations have no ids (''). */
export function inputItems(req: ResponseRequest): MessageItem[] {
  if (typeof req.input === 'string') return [{ type: 'message', id: '', status: 'completed', role: 'user', content: [{ type: 'input_text', text: req.input }] }];
  return req.input.map((m) =>
    isLegacy(m) ? { type: 'message', id: '', status: 'completed', role: m.role, content: [{ type: m.role === 'assistant' ? 'output_text' : 'input_text', text: m.content }] } : m,
  );
}

/** The assistant message a response produced (as far as `text` goes). */
export function outputMessage(row: Pick<ResponseRow, 'item_id'>, text: string, status: OutputMessage['status']): OutputMessage {
  return { type: 'message', id: row.item_id, status, role: 'assistant', content: [{ type: 'output_text', text, annotations: [], logprobs: [] }] };
}

/** The same message as a stored item (what a conversation and a later turn's context hold). */
export function asItem(m: OutputMessage): MessageItem {
  return { type: 'message', id: m.id, status: m.status, role: 'assistant', content: m.content.map((p) => ({ type: 'output_text', text: p.text })) };
}

export function itemText(item: MessageItem): string {
  return item.content.map((p) => p.text).join('');
}

/** The chat the engine runs: instructions first, then every item in order. */
export function toChatMessages(instructions: string | null, items: readonly MessageItem[]): ChatMessage[] {
  const messages: ChatMessage[] = [];
  if (instructions) messages.push({ role: 'system', content: instructions });
  // The Responses API's `developer` role is a system message for a local chat template.
  for (const item of items) messages.push({ role: item.role === 'developer' ? 'system' : item.role, content: itemText(item) });
  return messages;
}
