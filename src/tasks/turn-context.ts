// A turn's context: on accept, what the client named is checked and resolved (item references to
// the items they name, previous_response_id to a stored response the caller may read); when the
// task runs, the earlier turns are read from the store (the previous responses' input and output,
// in order, or the conversation's items) and fitted into the model's context by `truncation`.
import type { InputItem, StoredItem, Truncation } from '../contract/responses.js';
import type { ChatMessage } from '../engine/engine.js';
import type { ReadableDB } from '../store/open.js';
import { conversationItems, findConversationItem, getConversation } from './conversations.js';
import { answerItems, asItem, inputItems, itemOwner, itemText, keptItem, outputCalls, outputMessage, toChatMessages } from './items.js';
import { getResponseRow, getTaskByResponse } from './queries.js';
import { parseRequest } from './response-object.js';
import { isTerminal, type ResponseRow } from './types.js';

/** Something the client named that cannot be used; the route makes it a 4xx naming `param`. */
export class TurnInputError extends Error {
  constructor(
    readonly status: 400 | 404 | 409,
    readonly code: string,
    readonly param: string,
    message: string,
  ) {
    super(message);
    this.name = 'TurnInputError';
  }
}

/** A task that cannot run for a reason the client can act on: its response fails with this code. */
export class TurnFailure extends Error {
  constructor(
    readonly code: 'context_length_exceeded' | 'previous_response_not_found' | 'conversation_not_found' | 'invalid_json_schema',
    message: string,
  ) {
    super(message);
    this.name = 'TurnFailure';
  }
}

/** May the caller read what this client made? (service/access.ts decides.) */
export type MayRead = (clientId: string | null) => boolean;
/** Why a response id is gone, from the deletion journal ('unstored', 'deleted', 'retention'), if it is. */
export type DeletedWhy = (id: string) => string | undefined;

function answerOf(row: ResponseRow): StoredItem | undefined {
  return row.output_text === null ? undefined : asItem(outputMessage(row, row.output_text, row.incomplete_reason ? 'incomplete' : 'completed'));
}

/** The items a finished answer holds (none before it finished). */
function finishedAnswer(row: ResponseRow): StoredItem[] {
  return row.output_text === null ? [] : answerItems(row, parseRequest(row), row.output_text, row.incomplete_reason ? 'incomplete' : 'completed');
}

/** The stored item with this id (an answer, an input item, a conversation's item), if the caller may read it. */
function findItem(db: ReadableDB, id: string, mayRead: MayRead): StoredItem | undefined {
  const owner = itemOwner(id);
  const row = owner && getResponseRow(db, owner.responseId);
  if (row && mayRead(row.client_id)) {
    const found =
      owner.call !== null
        ? outputCalls(row)[owner.call]
        : owner.position === null
          ? row.item_id === id
            ? answerOf(row)
            : undefined
          : inputItems(parseRequest(row))[owner.position];
    if (found?.id === id) return found;
  }
  const kept = findConversationItem(db, id);
  if (kept && mayRead(kept.clientId)) return kept.item;
  // An answer of an older store, whose id was random (the partial index holds only those).
  const older = db.prepare<[string], ResponseRow>("SELECT * FROM responses WHERE item_id = ? AND item_id <> 'msg_' || substr(id, 6)").get(id);
  return older && mayRead(older.client_id) ? answerOf(older) : undefined;
}

/** This turn's input as kept: each reference resolved; a new message's id is '' until its store names it. */
export function resolveInput(db: ReadableDB, input: string | InputItem[], mayRead: MayRead): StoredItem[] {
  if (typeof input === 'string') return [{ type: 'message', id: '', status: 'completed', role: 'user', content: [{ type: 'input_text', text: input }] }];
  return input.map((item, i) => {
    if (item.type !== 'item_reference') return keptItem(item);
    const found = findItem(db, item.id, mayRead);
    if (!found)
      throw new TurnInputError(
        404,
        'item_not_found',
        `input[${i}].id`,
        `No stored item has the id ${item.id} (or it is another client's); refer to an item of a stored response or conversation, or send its content.`,
      );
    return found;
  });
}

/** The response a turn continues: stored, finished, and the caller's to read. */
export function checkPrevious(db: ReadableDB, id: string, mayRead: MayRead, deletedWhy: DeletedWhy): ResponseRow {
  const param = 'previous_response_id';
  const row = getResponseRow(db, id);
  const task = row && getTaskByResponse(db, id);
  if (!row || !task || !mayRead(row.client_id)) {
    const why = deletedWhy(id);
    if (why === 'unstored')
      throw new TurnInputError(
        400,
        'previous_response_not_stored',
        param,
        `Response ${id} was created with store: false, so it was not kept and cannot be continued; send the earlier turns as input, or create them with store: true.`,
      );
    if (why !== undefined)
      throw new TurnInputError(
        404,
        'previous_response_not_found',
        param,
        `Response ${id} was deleted, so it cannot be continued; send the earlier turns as input instead.`,
      );
    throw new TurnInputError(404, 'previous_response_not_found', param, `No response ${id} was found; check the id (GET /v1/responses/{id}).`);
  }
  if (row.store === 0)
    throw new TurnInputError(
      400,
      'previous_response_not_stored',
      param,
      `Response ${id} was created with store: false and cannot be continued; send the earlier turns as input, or create them with store: true.`,
    );
  if (!isTerminal(task.status))
    throw new TurnInputError(409, 'previous_response_in_progress', param, `Response ${id} is still being generated; wait for it to finish, then continue it.`);
  return row;
}

/** The conversation a turn belongs to: it exists and the caller may read it. */
export function checkConversation(db: ReadableDB, id: string, mayRead: MayRead): void {
  const row = getConversation(db, id);
  if (!row || !mayRead(row.client_id))
    throw new TurnInputError(404, 'conversation_not_found', 'conversation', `No conversation ${id} was found; create one with POST /v1/conversations.`);
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
      `${tooLong('The input', tokens).message}; shorten it, or send truncation: "auto" to leave out the oldest items.`,
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
