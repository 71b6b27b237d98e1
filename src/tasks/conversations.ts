// THE writer of conversations and their items (tables `conversations`, `conversation_items`).
// Every change is one transaction, committed before the route answers (LMSP §11.2: durable before
// acknowledged). A turn's items are added by the ledger, inside the transaction that completes the
// response (appendTurn), so a crash leaves a conversation as it was before the turn or with the
// whole turn, never half of it. Deletions are journalled inside their transaction, before the
// commit (store/deletion-journal.ts), so a restored older store has them removed again.
import { forgetAnswersOf } from '../store/idempotency-forget.js';
import type { Conversation } from '../contract/conversations.js';
import type { StoredItem } from '../contract/responses.js';
import { newId } from '../ids.js';
import { likePattern } from '../store/like-pattern.js';
import type { Db, ReadableDB } from '../store/open.js';
import { parseMetadata } from './response-object.js';
import type { DeletionRecorder } from './retention.js';
import type { Deletion } from '../store/deletion-journal.js';

export interface ConversationRow {
  id: string;
  client_id: string | null;
  metadata: string | null;
  created_at: number;
  /** Its newest item's time, or its creation (migration 0016). */
  updated_at: number;
}

interface ItemRow {
  conversation_id: string;
  position: number;
  id: string;
  data: string;
  response_id: string | null;
  created_at: number;
}

export type ConversationObject = Conversation;

function parseItem(row: ItemRow): StoredItem {
  // eslint-disable-next-line @typescript-eslint/no-unsafe-assignment -- written by addItems from a typed StoredItem
  const item: StoredItem = JSON.parse(row.data);
  return item;
}

export function conversationObject(row: ConversationRow): ConversationObject {
  return { id: row.id, object: 'conversation', created_at: row.created_at, updated_at: row.updated_at, metadata: parseMetadata(row.metadata) };
}

export function getConversation(db: ReadableDB, id: string): ConversationRow | undefined {
  return db.prepare<[string], ConversationRow>('SELECT * FROM conversations WHERE id = ?').get(id);
}

/** Appends items in order, after the last one; an item whose id the conversation has already is left out. */
function addItemsInTransaction(db: Db, conversationId: string, items: readonly StoredItem[], responseId: string | null, nowS: number): StoredItem[] {
  const last =
    db.prepare<[string], { p: number | null }>('SELECT MAX(position) AS p FROM conversation_items WHERE conversation_id = ?').get(conversationId)?.p ?? 0;
  const has = db.prepare<[string, string], { id: string }>('SELECT id FROM conversation_items WHERE conversation_id = ? AND id = ?');
  const insert = db.prepare('INSERT INTO conversation_items (conversation_id, position, id, data, response_id, created_at) VALUES (?, ?, ?, ?, ?, ?)');
  const added: StoredItem[] = [];
  let position = last;
  for (const item of items) {
    if (item.id === '' || has.get(conversationId, item.id)) continue;
    position += 1;
    insert.run(conversationId, position, item.id, JSON.stringify(item), responseId, nowS);
    added.push(item);
  }
  if (added.length > 0) db.prepare('UPDATE conversations SET updated_at = ? WHERE id = ?').run(nowS, conversationId);
  return added;
}

export function createConversation(
  db: Db,
  input: { clientId: string | null; metadata: Record<string, string> | null; items: readonly StoredItem[] },
  nowS: number,
): ConversationRow {
  const row: ConversationRow = {
    id: newId('conv'),
    client_id: input.clientId,
    metadata: input.metadata ? JSON.stringify(input.metadata) : null,
    created_at: nowS,
    updated_at: nowS,
  };
  db.transaction(() => {
    db.prepare('INSERT INTO conversations (id, client_id, metadata, created_at, updated_at) VALUES (@id, @client_id, @metadata, @created_at, @updated_at)').run(
      row,
    );
    addItemsInTransaction(db, row.id, input.items, null, nowS);
  })();
  return row;
}

export function updateConversationMetadata(db: Db, id: string, metadata: Record<string, string>): ConversationRow | undefined {
  db.prepare('UPDATE conversations SET metadata = ? WHERE id = ?').run(JSON.stringify(metadata), id);
  return getConversation(db, id);
}

/**
 * Deletes a conversation, its items and every response made in it (their tasks and events), all
 * journalled, in one transaction: "delete this chat" means its words are gone from every screen,
 * search and the next generation. OpenAI keeps a deleted conversation's responses; Sanad does not
 * (docs/api.md says why). `busy`: a response in it is still being made, and nothing was deleted.
 */
export function deleteConversation(db: Db, id: string, journal: DeletionRecorder, nowS: number): 'deleted' | 'not_found' | 'busy' {
  return db.transaction(() => {
    if (!getConversation(db, id)) return 'not_found';
    const responses = db
      .prepare<[string], { id: string; status: string | null }>(
        'SELECT r.id, t.status FROM responses r LEFT JOIN tasks t ON t.response_id = r.id WHERE r.conversation_id = ?',
      )
      .all(id);
    if (responses.some((r) => r.status !== null && !ENDED.has(r.status))) return 'busy';
    const ids = responses.map((r) => r.id);
    const gone: Deletion[] = [{ kind: 'conversation', id, at: nowS, why: 'deleted' }];
    for (const r of ids) gone.push({ kind: 'response', id: r, at: nowS, why: 'deleted' });
    journal.record(gone);
    // Explicit, not through ON DELETE CASCADE: the connection may not have foreign keys on.
    db.prepare('DELETE FROM conversation_items WHERE conversation_id = ?').run(id);
    db.prepare('DELETE FROM conversations WHERE id = ?').run(id);
    const dropResponse = db.prepare('DELETE FROM responses WHERE id = ?');
    for (const r of ids) dropResponse.run(r);
    forgetAnswersOf(db, [id, ...ids]);
    return 'deleted';
  })();
}

const ENDED: ReadonlySet<string> = new Set(['completed', 'failed', 'cancelled']);

export function addItems(db: Db, conversationId: string, items: readonly StoredItem[], nowS: number): StoredItem[] {
  return db.transaction(() => addItemsInTransaction(db, conversationId, items, null, nowS))();
}

/**
 * A completed turn: its input items, then its output. Runs inside the ledger's transaction that
 * completes the response; a conversation deleted meanwhile simply gets nothing.
 */
export function appendTurn(db: Db, conversationId: string, items: readonly StoredItem[], responseId: string, nowS: number): void {
  if (!getConversation(db, conversationId)) return;
  addItemsInTransaction(db, conversationId, items, responseId, nowS);
}

export function getItem(db: ReadableDB, conversationId: string, itemId: string): StoredItem | undefined {
  const row = db.prepare<[string, string], ItemRow>('SELECT * FROM conversation_items WHERE conversation_id = ? AND id = ?').get(conversationId, itemId);
  return row && parseItem(row);
}

export function deleteItem(db: Db, conversationId: string, itemId: string, journal: DeletionRecorder, nowS: number): boolean {
  return db.transaction(() => {
    if (!getItem(db, conversationId, itemId)) return false;
    journal.record([{ kind: 'conversation_item', id: itemId, conversation_id: conversationId, at: nowS, why: 'deleted' }]);
    db.prepare('DELETE FROM conversation_items WHERE conversation_id = ? AND id = ?').run(conversationId, itemId);
    // The answers that made or listed the conversation's items may hold this one's text.
    forgetAnswersOf(db, [conversationId]);
    return true;
  })();
}

/** Every item of a conversation, oldest first: the context of its next turn. */
export function conversationItems(db: ReadableDB, conversationId: string): StoredItem[] {
  return db.prepare<[string], ItemRow>('SELECT * FROM conversation_items WHERE conversation_id = ? ORDER BY position').all(conversationId).map(parseItem);
}

export interface ItemPageQuery {
  after?: string;
  limit: number;
  order: 'asc' | 'desc';
}

/** One page of a conversation's items, cursor-paged by item id (`after`: the last id of the previous page). */
export function itemPage(db: ReadableDB, conversationId: string, q: ItemPageQuery): { data: StoredItem[]; has_more: boolean } | { unknownCursor: true } {
  let from: number | null = null;
  if (q.after !== undefined && q.after !== '') {
    const at = db
      .prepare<[string, string], { position: number }>('SELECT position FROM conversation_items WHERE conversation_id = ? AND id = ?')
      .get(conversationId, q.after);
    if (!at) return { unknownCursor: true };
    from = at.position;
  }
  const cmp = q.order === 'asc' ? '>' : '<';
  const rows = db
    .prepare<[string, number, number], ItemRow>(
      `SELECT * FROM conversation_items WHERE conversation_id = ? AND position ${cmp} ? ORDER BY position ${q.order === 'asc' ? 'ASC' : 'DESC'} LIMIT ?`,
    )
    .all(conversationId, from ?? (q.order === 'asc' ? 0 : Number.MAX_SAFE_INTEGER), q.limit + 1);
  return { data: rows.slice(0, q.limit).map(parseItem), has_more: rows.length > q.limit };
}

export interface ConversationListQuery {
  /** Only this client's (null: every client's, for tasks:read and admin). */
  clientId: string | null;
  after?: string;
  limit: number;
  /** Words to find in the title (metadata `title`) or the text of any message. */
  q?: string;
}

// A message's text is in the trigram index kept by the store's triggers (migration 26): a
// phrase of three characters or more is found through it; shorter words fall back to LIKE over the
// index's own copy of the text (still one table, not every item's JSON).
const TEXT_MATCH_PHRASE = `c.id IN (SELECT conversation_id FROM conversation_search WHERE conversation_search MATCH @phrase)`;
const TEXT_MATCH_SHORT = `c.id IN (SELECT conversation_id FROM conversation_search WHERE text LIKE @q ESCAPE '\\')`;
const TITLE_MATCH = `json_extract(c.metadata, '$.title') LIKE @q ESCAPE '\\'`;

/** Words as one FTS5 phrase (quotes doubled): the trigram tokenizer finds it as a substring, in any case. */
function phraseOf(words: string): string {
  return `"${words.replaceAll('"', '""')}"`;
}

/** The WHERE of a list or count: whose, and which words (the cursor is the list's own). */
function filterOf(q: Pick<ConversationListQuery, 'clientId' | 'q'>): { where: string[]; params: Record<string, string | number> } {
  const where: string[] = [];
  const params: Record<string, string | number> = {};
  if (q.clientId !== null) {
    where.push('c.client_id = @client');
    params.client = q.clientId;
  }
  const words = q.q?.trim() ?? '';
  if (words !== '') {
    const indexed = [...words].length >= 3;
    where.push(`(${TITLE_MATCH} OR ${indexed ? TEXT_MATCH_PHRASE : TEXT_MATCH_SHORT})`);
    params.q = likePattern(words);
    if (indexed) params.phrase = phraseOf(words);
  }
  return { where, params };
}

const whereSql = (where: readonly string[]): string => (where.length ? `WHERE ${where.join(' AND ')}` : '');

/**
 * Conversations, the one changed last first (ties by id, newest first), keyset-paged: `after` is the
 * last id of the page before, and the page goes on below where that one stands now.
 */
export function listConversations(db: ReadableDB, q: ConversationListQuery): { data: ConversationRow[]; has_more: boolean } | { unknownCursor: true } {
  const { where, params } = filterOf(q);
  if (q.after) {
    const at = getConversation(db, q.after);
    if (!at) return { unknownCursor: true };
    where.push('(c.updated_at < @at OR (c.updated_at = @at AND c.id < @after))');
    params.at = at.updated_at;
    params.after = at.id;
  }
  const rows = db
    .prepare<Record<string, string | number>, ConversationRow>(
      `SELECT c.* FROM conversations c ${whereSql(where)} ORDER BY c.updated_at DESC, c.id DESC LIMIT @limit`,
    )
    .all({ ...params, limit: q.limit + 1 });
  return { data: rows.slice(0, q.limit), has_more: rows.length > q.limit };
}

/** How many conversations a list with these words would hold in all. */
export function countConversations(db: ReadableDB, q: Pick<ConversationListQuery, 'clientId' | 'q'>): number {
  const { where, params } = filterOf(q);
  return db.prepare<Record<string, string | number>, { n: number }>(`SELECT COUNT(*) AS n FROM conversations c ${whereSql(where)}`).get(params)?.n ?? 0;
}

/** How many items a conversation holds, and its last one. */
export function conversationTail(db: ReadableDB, conversationId: string): { items: number; last: StoredItem | null } {
  const items = db.prepare<[string], { n: number }>('SELECT COUNT(*) AS n FROM conversation_items WHERE conversation_id = ?').get(conversationId)?.n ?? 0;
  const row = db.prepare<[string], ItemRow>('SELECT * FROM conversation_items WHERE conversation_id = ? ORDER BY position DESC LIMIT 1').get(conversationId);
  return { items, last: row ? parseItem(row) : null };
}

/** Where an item id is kept in a conversation (for `item_reference`), with its conversation's owner. */
export function findConversationItem(db: ReadableDB, itemId: string): { item: StoredItem; clientId: string | null } | undefined {
  const row = db
    .prepare<[string], ItemRow & { client_id: string | null }>(
      'SELECT i.*, c.client_id FROM conversation_items i JOIN conversations c ON c.id = i.conversation_id WHERE i.id = ? LIMIT 1',
    )
    .get(itemId);
  return row && { item: parseItem(row), clientId: row.client_id };
}
