// The names a person knows the items of a comparison by: a response or a task by what was asked,
// a conversation by its first message, a client by its name (a model's id is its name). Read from
// the store that holds the item (the later one for added and changed, the earlier for removed),
// for the first NAMED_PER_LIST items of each list: a list longer than that shows ids past it.
import type { GenerationDiff } from '../contract/history.js';
import type { ReadableDB } from '../store/open.js';
import { contentText, inputText, preview } from '../tasks/request-text.js';

export const NAMED_PER_LIST = 200;

type Namer = (db: ReadableDB, ids: readonly string[]) => Array<[string, string]>;

function rowsOf(db: ReadableDB, sql: (marks: string) => string, ids: readonly string[]): Array<{ id: string; v: string | null }> {
  if (ids.length === 0) return [];
  return db.prepare<string[], { id: string; v: string | null }>(sql(ids.map(() => '?').join(','))).all(...ids);
}

const responses: Namer = (db, ids) =>
  rowsOf(db, (m) => `SELECT id, request AS v FROM responses WHERE id IN (${m})`, ids).map((r) => [r.id, preview(inputText(r.v ?? ''))]);
const tasks: Namer = (db, ids) =>
  rowsOf(db, (m) => `SELECT t.id, r.request AS v FROM tasks t JOIN responses r ON r.id = t.response_id WHERE t.id IN (${m})`, ids).map((r) => [
    r.id,
    preview(inputText(r.v ?? '')),
  ]);
const clients: Namer = (db, ids) => rowsOf(db, (m) => `SELECT id, name AS v FROM clients WHERE id IN (${m})`, ids).map((r) => [r.id, r.v ?? '']);
const conversations: Namer = (db, ids) =>
  rowsOf(
    db,
    (m) =>
      `SELECT c.id, (SELECT data FROM conversation_items i WHERE i.conversation_id = c.id ORDER BY position LIMIT 1) AS v FROM conversations c WHERE c.id IN (${m})`,
    ids,
  ).map((r) => {
    try {
      return [r.id, preview(contentText(JSON.parse(r.v ?? 'null')))];
    } catch {
      return [r.id, ''];
    }
  });

/** id → name for the items the comparison lists (only those with a name to give). */
export function diffNames(from: ReadableDB, to: ReadableDB, diff: Omit<GenerationDiff, 'names'>): Record<string, string> {
  const names: Record<string, string> = {};
  const name = (namer: Namer, db: ReadableDB, ids: readonly string[]): void => {
    for (const [id, n] of namer(db, ids.slice(0, NAMED_PER_LIST))) if (n !== '') names[id] = n;
  };
  for (const [namer, changes] of [
    [responses, diff.responses],
    [tasks, diff.tasks],
    [conversations, diff.conversations],
  ] as const) {
    name(namer, to, changes.added);
    name(namer, to, changes.changed);
    name(namer, from, changes.removed);
  }
  name(clients, to, [...diff.clients.added, ...diff.clients.revoked]);
  name(clients, from, diff.clients.removed);
  return names;
}
