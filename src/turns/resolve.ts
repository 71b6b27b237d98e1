// What a turn names, checked and resolved when it is accepted, before anything is written: item
// references become the items they name, previous_response_id must be a stored, finished response
// and a conversation must exist, each the caller's to read. A refusal is a TurnError naming the
// parameter; the door answers it as a 4xx before any stream begins.
import type { InputItem, StoredItem } from '../contract/responses.js';
import type { ReadableDB } from '../store/open.js';
import { findConversationItem, getConversation } from '../tasks/conversations.js';
import { inputItems, itemOwner, keptItem, outputCalls, outputReasoning } from '../tasks/items.js';
import { getResponseRow, getTaskByResponse } from '../tasks/queries.js';
import { parseRequest } from '../tasks/response-object.js';
import { answerOf } from '../tasks/turn-context.js';
import { isTerminal, type ResponseRow } from '../tasks/types.js';
import { TurnError } from './errors.js';

/** May the caller read what this client made? (service/access.ts decides.) */
export type MayRead = (clientId: string | null) => boolean;
/** Why a response id is gone, from the deletion journal ('unstored', 'deleted', 'retention'), if it is. */
export type DeletedWhy = (id: string) => string | undefined;

/** The stored item with this id (an answer, an input item, a conversation's item), if the caller may read it. */
function findItem(db: ReadableDB, id: string, mayRead: MayRead): StoredItem | undefined {
  // A thought: `rs_<S>` is the reasoning item of `resp_<S>` (items.ts: itemNames).
  const thought = /^rs_([0-9a-z]+)$/.exec(id);
  const thinker = thought?.[1] ? getResponseRow(db, `resp_${thought[1]}`) : undefined;
  if (thinker && mayRead(thinker.client_id)) {
    const found = outputReasoning(thinker);
    if (found?.id === id) return found;
  }
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
      throw new TurnError(
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
      throw new TurnError(
        'previous_response_not_stored',
        param,
        `Response ${id} was created with store: false, so it was not kept and cannot be continued; send the earlier turns as input, or create them with store: true.`,
      );
    if (why !== undefined)
      throw new TurnError(
        'previous_response_not_found',
        param,
        `Response ${id} was deleted, so it cannot be continued; send the earlier turns as input instead.`,
      );
    throw new TurnError('previous_response_not_found', param, `No response ${id} was found; check the id (GET /v1/responses/{id}).`);
  }
  if (row.store === 0)
    throw new TurnError(
      'previous_response_not_stored',
      param,
      `Response ${id} was created with store: false and cannot be continued; send the earlier turns as input, or create them with store: true.`,
    );
  if (!isTerminal(task.status))
    throw new TurnError('previous_response_in_progress', param, `Response ${id} is still being generated; wait for it to finish, then continue it.`);
  return row;
}

/** The conversation a turn adds to: readable by the caller, else not found; changeable, else refused (a turn writes into it). */
export function checkConversation(db: ReadableDB, id: string, mayRead: MayRead, mayChange: MayRead): void {
  const row = getConversation(db, id);
  if (!row || !mayRead(row.client_id))
    throw new TurnError('conversation_not_found', 'conversation', `No conversation ${id} was found; create one with POST /v1/conversations.`);
  if (!mayChange(row.client_id))
    throw new TurnError(
      'insufficient_scope',
      'conversation',
      `Only the client that created conversation ${id} (or admin) may add to it; start your own with POST /v1/conversations, or continue from a response with previous_response_id.`,
    );
}
