// Items: the messages and function calls of a turn as Sanad keeps them (each with its id), made
// from what a client sent, read back from older stores, and turned into the chat the engine runs.
import type {
  ContentPart,
  FunctionCallItem,
  InputItem,
  InputMessage,
  MessageItem,
  OutputMessage,
  ReasoningItem,
  StoredItem,
  TextPart,
} from '../contract/responses.js';
import type { ChatMessage, ToolCallMessage } from '../engine/engine.js';
import type { LegacyMessage, ResponseRequest, ResponseRow } from './types.js';

function textOfPart(part: ContentPart): string {
  return part.type === 'refusal' ? part.refusal : part.text;
}

/**
 * The ids of a new response's items, named after it: `resp_<S>` answers as `msg_<S>` and its own
 * input items are `msg_<S>_<n>`, so an `item_reference` finds either with a primary-key read.
 */
export function itemNames(responseId: string): {
  answer: string;
  reasoning: string;
  input: (position: number) => string;
  call: (index: number) => string;
} {
  const stem = responseId.slice('resp_'.length);
  return { answer: `msg_${stem}`, reasoning: `rs_${stem}`, input: (position) => `msg_${stem}_${position}`, call: (index) => `fc_${stem}_${index}` };
}

/** Where an item named by itemNames lives: its response, and an input item's position or an output call's index. */
export function itemOwner(itemId: string): { responseId: string; position: number | null; call: number | null } | null {
  const m = /^(msg|fc)_([0-9a-z]+)(?:_(\d+))?$/.exec(itemId);
  if (!m?.[2]) return null;
  const n = m[3] === undefined ? null : Number(m[3]);
  if (m[1] === 'fc') return n === null ? null : { responseId: `resp_${m[2]}`, position: null, call: n };
  return { responseId: `resp_${m[2]}`, position: n, call: null };
}

/** A message as sent, kept: its own id, or '' for one the store names (itemNames, or a conversation's new id). */
export function keptMessage(m: InputMessage): MessageItem {
  const partType = m.role === 'assistant' ? 'output_text' : 'input_text';
  const content: TextPart[] =
    typeof m.content === 'string'
      ? [{ type: partType, text: m.content }]
      : m.content.map((p) => ({ type: p.type === 'input_text' ? 'input_text' : 'output_text', text: textOfPart(p) }));
  return { type: 'message', id: m.id ?? '', status: m.status ?? 'completed', role: m.role, content };
}

/** An input item as sent (not a reference), kept: its own id, or '' until the store names it. */
export function keptItem(item: Exclude<InputItem, { type: 'item_reference' }>): StoredItem {
  if (item.type === 'message') return keptMessage(item);
  const status = item.status ?? 'completed';
  if (item.type === 'reasoning') return { type: 'reasoning', id: item.id ?? '', summary: item.summary, content: item.content ?? [], status };
  if (item.type === 'function_call')
    return { type: 'function_call', id: item.id ?? '', call_id: item.call_id, name: item.name, arguments: item.arguments, status };
  const output = typeof item.output === 'string' ? item.output : item.output.map((p) => p.text).join('');
  return { type: 'function_call_output', id: item.id ?? '', call_id: item.call_id, output, status };
}

function isLegacy(m: StoredItem | LegacyMessage): m is LegacyMessage {
  return 'content' in m && typeof m.content === 'string';
}

/** A stored request's own input as items; requests from before conversations have no ids (''). */
export function inputItems(req: ResponseRequest): StoredItem[] {
  if (typeof req.input === 'string')
    return [{ type: 'message', id: '', status: 'completed', role: 'user', content: [{ type: 'input_text', text: req.input }] }];
  return req.input.map((m) =>
    isLegacy(m)
      ? {
          type: 'message',
          id: '',
          status: 'completed',
          role: m.role,
          content: [{ type: m.role === 'assistant' ? 'output_text' : 'input_text', text: m.content }],
        }
      : m,
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

/** Whether the answer has a message at all: a forced call (`required`, or one named function) answers with the call alone. */
export function answersWithMessage(req: Pick<ResponseRequest, 'tools' | 'tool_choice'>): boolean {
  const choice = req.tool_choice;
  return !(req.tools && req.tools.length > 0 && (choice === 'required' || (typeof choice === 'object' && choice !== null)));
}

/** The items an answer made besides its message, as stored beside its text (output_items): its reasoning, then its calls. */
function outputItems(row: Pick<ResponseRow, 'output_items'>): Array<FunctionCallItem | ReasoningItem> {
  if (!row.output_items) return [];
  // eslint-disable-next-line @typescript-eslint/no-unsafe-assignment -- written by TaskLedger.transition from typed items
  const items: Array<FunctionCallItem | ReasoningItem> = JSON.parse(row.output_items);
  return items;
}

/** The function calls an answer made. */
export function outputCalls(row: Pick<ResponseRow, 'output_items'>): FunctionCallItem[] {
  return outputItems(row).filter((item): item is FunctionCallItem => item.type === 'function_call');
}

/** What the model thought before it answered, once the answer is stored (null: it did not think). */
export function outputReasoning(row: Pick<ResponseRow, 'output_items'>): ReasoningItem | null {
  return outputItems(row).find((item): item is ReasoningItem => item.type === 'reasoning') ?? null;
}

/** A reasoning item holding this text. */
export function reasoningItem(id: string, text: string, status: ReasoningItem['status']): ReasoningItem {
  return { type: 'reasoning', id, summary: [], content: [{ type: 'reasoning_text', text }], status };
}

export function reasoningText(item: ReasoningItem): string {
  return item.content.map((p) => p.text).join('');
}

/**
 * What an answer adds to the context of later turns and to its conversation: its message (when it
 * has one, and it says something or says nothing else), then its calls.
 */
export function answerItems(
  row: Pick<ResponseRow, 'item_id' | 'output_items'>,
  req: Pick<ResponseRequest, 'tools' | 'tool_choice'>,
  text: string,
  status: OutputMessage['status'],
): StoredItem[] {
  const calls = outputCalls(row);
  const reasoning = outputReasoning(row);
  const items: StoredItem[] = reasoning ? [reasoning] : [];
  if (answersWithMessage(req) && (text !== '' || calls.length === 0)) items.push(asItem(outputMessage(row, text, status)));
  return [...items, ...calls];
}

/** The chat the engine runs: instructions first, then every item in order, each call with its output. */
export function toChatMessages(instructions: string | null, items: readonly StoredItem[]): ChatMessage[] {
  const messages: ChatMessage[] = [];
  if (instructions) messages.push({ role: 'system', content: instructions });
  const calls = new Map<string, ToolCallMessage>();
  // Thinking belongs to the assistant message (or call) that follows it.
  let thought: string | null = null;
  const withThought = (m: ChatMessage): ChatMessage => {
    if (thought === null || m.role !== 'assistant') return m;
    const out = { ...m, reasoning: thought };
    thought = null;
    return out;
  };
  for (const item of items) {
    if (item.type === 'reasoning') {
      thought = (thought ?? '') + reasoningText(item);
      continue;
    }
    if (item.type === 'message') {
      // The Responses API's `developer` role is a system message for a local chat template.
      messages.push(withThought({ role: item.role === 'developer' ? 'system' : item.role, content: itemText(item) }));
      continue;
    }
    if (item.type === 'function_call') {
      // A call belongs to the answer before it, if that answer is the last message (and no thought came between).
      const last = messages.at(-1);
      const call: ToolCallMessage = { name: item.name, arguments: item.arguments, result: null };
      calls.set(item.call_id, call);
      if (last?.role === 'assistant' && thought === null) (last.calls ??= []).push(call);
      else messages.push(withThought({ role: 'assistant', content: '', calls: [call] }));
      continue;
    }
    const call = calls.get(item.call_id);
    if (call) call.result = item.output;
    // An output whose call is not in the context (truncated away, or never sent): the model still reads it.
    else messages.push({ role: 'user', content: `Output of function call ${item.call_id}: ${item.output}` });
  }
  return messages;
}
