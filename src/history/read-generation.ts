// What a generation holds, read from its opened store copy (generation-copy.ts): counts, settings,
// the app version, and a paged, searchable list of its responses with a preview of each and where
// it stands in the live data.
import type {
  GenerationConversation,
  GenerationConversationPage,
  GenerationCounts,
  GenerationResponse,
  GenerationResponsePage,
  GenerationSummary,
} from '../contract/history.js';
import { conversationTail, countConversations, listConversations } from '../tasks/conversations.js';
import { parseMetadata } from '../tasks/response-object.js';
import { contentText, inputText, preview } from '../tasks/request-text.js';
import { likePattern } from '../store/like-pattern.js';
import type { ReadableDB } from '../store/open.js';
import { readSettings } from '../store/settings.js';
import type { OpenedGeneration } from './generation-copy.js';

export const MAX_PAGE = 100;

function count(db: ReadableDB, sql: string): number {
  return db.prepare<[], { n: number }>(sql).get()?.n ?? 0;
}

export function countsOf(db: ReadableDB): GenerationCounts {
  return {
    tasks: count(db, 'SELECT COUNT(*) AS n FROM tasks'),
    responses: count(db, 'SELECT COUNT(*) AS n FROM responses'),
    events: count(db, 'SELECT COUNT(*) AS n FROM task_events'),
    clients: count(db, 'SELECT COUNT(*) AS n FROM clients'),
    clients_revoked: count(db, 'SELECT COUNT(*) AS n FROM clients WHERE revoked_at IS NOT NULL'),
    models: count(db, 'SELECT COUNT(*) AS n FROM models'),
    conversations: count(db, 'SELECT COUNT(*) AS n FROM conversations'),
  };
}

export function summaryOf(opened: OpenedGeneration): GenerationSummary {
  const { g, parts, db } = opened;
  return {
    generation: g.generation,
    repo: g.repo,
    snapshot_id: g.snapshot_id,
    created_at: parts.manifest.created_at,
    host: parts.manifest.host,
    app_version: parts.manifest.app_version,
    store_version: opened.storeVersion,
    counts: countsOf(db),
    settings: { ...readSettings(db) },
    journal_entries: opened.journal.length,
  };
}

export interface PageQuery {
  q?: string;
  /** The id of the last response of the previous page. */
  after?: string;
  limit?: number;
}

interface Row {
  id: string;
  model: string;
  client_id: string | null;
  created_at: number;
  request: string;
  output_text: string | null;
  task_id: string | null;
  status: string | null;
  events: number;
}

export function responsesPage(db: ReadableDB, query: PageQuery, liveState: (id: string) => GenerationResponse['live']): GenerationResponsePage {
  const limit = Math.min(Math.max(query.limit ?? 20, 1), MAX_PAGE);
  const where: string[] = [];
  const params: string[] = [];
  if (query.q && query.q.trim() !== '') {
    where.push("(r.output_text LIKE ? ESCAPE '\\' OR r.request LIKE ? ESCAPE '\\' OR r.id = ?)");
    const p = likePattern(query.q.trim());
    params.push(p, p, query.q.trim());
  }
  const filter = where.length > 0 ? `WHERE ${where.join(' AND ')}` : '';
  const total = db.prepare<string[], { n: number }>(`SELECT COUNT(*) AS n FROM responses r ${filter}`).get(...params)?.n ?? 0;
  // Ids sort by creation time (ids.ts): newest first, keyset-paged by id.
  const page = query.after ? [...where, 'r.id < ?'] : where;
  const pageParams = query.after ? [...params, query.after] : params;
  const rows = db
    .prepare<string[], Row>(
      `SELECT r.id, r.model, r.client_id, r.created_at, r.request, r.output_text, t.id AS task_id, t.status,
            (SELECT COUNT(*) FROM task_events e WHERE e.task_id = t.id) AS events
     FROM responses r LEFT JOIN tasks t ON t.response_id = r.id
     ${page.length > 0 ? `WHERE ${page.join(' AND ')}` : ''}
     ORDER BY r.id DESC LIMIT ${limit + 1}`,
    )
    .all(...pageParams);
  const data = rows.slice(0, limit).map((r): GenerationResponse => ({
    id: r.id,
    task_id: r.task_id,
    status: r.status,
    model: r.model,
    client_id: r.client_id,
    created_at: r.created_at,
    input_preview: preview(inputText(r.request)),
    output_preview: preview(r.output_text),
    events: r.events,
    live: liveState(r.id),
  }));
  return { object: 'list', data, has_more: rows.length > limit, total };
}

type LiveState = GenerationResponse['live'];

/**
 * The conversations of a generation, the one changed last first, searchable by title and text as
 * the live list is (tasks/conversations.ts), with where each stands in the live data.
 */
export function conversationsPage(
  db: ReadableDB,
  query: PageQuery,
  liveState: (id: string) => LiveState,
): GenerationConversationPage | { unknownCursor: true } {
  const limit = Math.min(Math.max(query.limit ?? 20, 1), MAX_PAGE);
  const words = query.q?.trim() ?? '';
  const filter = { clientId: null, ...(words !== '' ? { q: words } : {}) };
  const page = listConversations(db, { ...filter, limit, ...(query.after ? { after: query.after } : {}) });
  if ('unknownCursor' in page) return page;
  const lastResponse = db.prepare<[string], { model: string; n: number }>(
    'SELECT model, COUNT(*) OVER () AS n FROM responses WHERE conversation_id = ? ORDER BY id DESC LIMIT 1',
  );
  const data = page.data.map((row): GenerationConversation => {
    const metadata = parseMetadata(row.metadata);
    const tail = conversationTail(db, row.id);
    const last = lastResponse.get(row.id);
    return {
      id: row.id,
      title: metadata.title ?? null,
      model: last?.model ?? metadata.model ?? null,
      created_at: row.created_at,
      updated_at: row.updated_at,
      items: tail.items,
      last_preview: preview(tail.last ? contentText(tail.last) : ''),
      responses: last?.n ?? 0,
      live: liveState(row.id),
    };
  });
  return { object: 'list', data, has_more: page.has_more, total: countConversations(db, filter) };
}

/** Where a response (or conversation) of a generation stands in the live data: there, deleted on purpose since, or neither. */
export function liveStateOf(live: ReadableDB, deleted: ReadonlySet<string>, table: 'responses' | 'conversations' = 'responses'): (id: string) => LiveState {
  const has = live.prepare<[string], { id: string }>(`SELECT id FROM ${table} WHERE id = ?`);
  return (id) => (has.get(id) ? 'present' : deleted.has(id) ? 'deleted' : 'absent');
}
