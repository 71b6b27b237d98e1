// A turn's context when its task runs: the earlier turns read from the store (the previous
// responses' input and output, in order, or the conversation's items), fitted into the model's
// context by `truncation`. What the client named was checked when the turn was accepted
// (turns/resolve.ts).
import type { StoredItem, Truncation } from '../contract/responses.js';
import type { ErrorCode } from '../contract/error-codes.js';
import type { ChatMessage } from '../engine/engine.js';
import type { ReadableDB } from '../store/open.js';
import { conversationItems, getConversation } from './conversations.js';
import { answerItems, asItem, inputItems, itemText, outputMessage, toChatMessages } from './items.js';
import { getResponseRow } from './queries.js';
import { parseRequest } from './response-object.js';
import type { ResponseRow } from './types.js';

/** A task that cannot run for a reason the client can act on: its response fails with this code. */
export class TurnFailure extends Error {
  constructor(
    readonly code: Extract<
      ErrorCode,
      | 'context_length_exceeded'
      | 'previous_response_not_found'
      | 'conversation_not_found'
      | 'invalid_json_schema'
      | 'reasoning_not_supported'
      | 'infill_not_supported'
    >,
    message: string,
  ) {
    super(message);
    this.name = 'TurnFailure';
  }
}

export function answerOf(row: ResponseRow): StoredItem | undefined {
  return row.output_text === null ? undefined : asItem(outputMessage(row, row.output_text, row.incomplete_reason ? 'incomplete' : 'completed'));
}

/** The items a finished answer holds (none before it finished). */
function finishedAnswer(row: ResponseRow): StoredItem[] {
  return row.output_text === null ? [] : answerItems(row, parseRequest(row), row.output_text, row.incomplete_reason ? 'incomplete' : 'completed');
}

/** One finished turn as context: its own input, then its answer (if it had one). */
function turnItems(row: ResponseRow): StoredItem[] {
  // An empty answer says nothing to the next turn (a call alone, or a cut that came before any text).
  return [...inputItems(parseRequest(row)), ...finishedAnswer(row).filter((item) => item.type !== 'message' || itemText(item) !== '')];
}

/** The items before this turn's own input: the chain of previous responses, or the conversation. */
export function earlierItems(db: ReadableDB, response: ResponseRow): StoredItem[] {
  if (response.conversation_id !== null) {
    if (!getConversation(db, response.conversation_id))
      throw new TurnFailure('conversation_not_found', `Conversation ${response.conversation_id} was deleted before this response ran.`);
    return conversationItems(db, response.conversation_id);
  }
  const turns: StoredItem[][] = [];
  const seen = new Set<string>();
  for (let id = response.previous_response_id; id !== null;) {
    const row = seen.has(id) ? undefined : getResponseRow(db, id);
    if (!row) throw new TurnFailure('previous_response_not_found', `Response ${id}, an earlier turn of this one, was deleted before this response ran.`);
    seen.add(id);
    turns.push(turnItems(row));
    id = row.previous_response_id;
  }
  return turns.reverse().flat();
}

export interface FitInput {
  instructions: string | null;
  items: readonly StoredItem[];
  truncation: Truncation;
  /** Tokens of the prompt the messages render to. */
  countTokens: (messages: ChatMessage[]) => number;
  contextSize: number;
  maxOutputTokens: number;
  model: string;
  /** Which API asked: the advice names only parameters that exist there. */
  door: 'responses' | 'chat';
}

/** The messages to run and how many of the oldest items were left out to fit. */
export function fitToContext(f: FitInput): { messages: ChatMessage[]; dropped: number } {
  // Room kept for the answer: its own limit, but never more than a quarter of the context.
  const reserve = Math.min(f.maxOutputTokens, Math.floor(f.contextSize / 4));
  const limit = f.contextSize - reserve;
  const render = (from: number): ChatMessage[] => toChatMessages(f.instructions, f.items.slice(from));
  const all = render(0);
  const tokens = f.countTokens(all);
  if (tokens <= limit) return { messages: all, dropped: 0 };
  const tooLong = (what: string, n: number): TurnFailure =>
    new TurnFailure(
      'context_length_exceeded',
      `${what} is ${n} tokens, and model ${f.model} holds ${f.contextSize} in its context with ${reserve} kept for the answer (${limit} for the input)`,
    );
  if (f.truncation === 'disabled') {
    throw new TurnFailure(
      'context_length_exceeded',
      `${tooLong('The input', tokens).message}; ${
        f.door === 'chat'
          ? 'shorten the messages, leave out the oldest ones, or ask for fewer output tokens'
          : 'shorten it, or send truncation: "auto" to leave out the oldest items'
      }.`,
    );
  }
  // Leaving out more never makes the prompt longer: the fewest dropped that fit, by bisection.
  const last = f.items.length - 1;
  if (last < 0 || f.countTokens(render(last)) > limit)
    throw new TurnFailure('context_length_exceeded', `${tooLong('The last input item alone', f.countTokens(render(Math.max(last, 0)))).message}; shorten it.`);
  let lo = 1;
  let hi = last;
  while (lo < hi) {
    const mid = Math.floor((lo + hi) / 2);
    if (f.countTokens(render(mid)) <= limit) hi = mid;
    else lo = mid + 1;
  }
  return { messages: render(lo), dropped: lo };
}
