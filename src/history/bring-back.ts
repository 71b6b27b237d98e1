// Bringing responses back from a generation into the live data: each with its task and every event,
// merged, never overwriting. A conversation (a `conv_` id) comes back with its items and every one
// of its responses. One transaction for all of them, recorded in bring_backs. An id the
// live store has is skipped (`exists`), one the deletion journal holds is skipped (`deleted`)
// unless the user asks to undelete it, one still being generated when the backup ran is skipped
// (`unfinished`: nothing here would ever end it). A second run changes nothing.
//
// The undelete takes the ids out of the journal after the commit: a crash in between leaves the
// response back and its id still journalled, so a later restore removes it again (deletions stay
// deleted is the stronger promise); running the bring-back again with --undelete mends it.
import type { BringBackEntry, BringBackResult, SkipReason } from '../contract/history.js';
import type { Deletion, DeletionJournal } from '../store/deletion-journal.js';
import type { ReadableDB, WritableDB } from '../store/open.js';
import { adoptFinishedTasks, type FinishedTaskRows } from '../tasks/ledger.js';
import { isTaskStatus, isTerminal } from '../tasks/types.js';
import type { OpenedGeneration } from './generation-copy.js';

export interface BringBackInput {
  live: WritableDB;
  journal: DeletionJournal;
  opened: Pick<OpenedGeneration, 'db' | 'g'>;
  ids: readonly string[];
  undelete: boolean;
  /** Who asked: an admin client's name, or "cli". */
  by: string;
  nowS: number;
}

type Row = Record<string, unknown>;

/** Reads one response with its task and events out of a generation's store; prepared once per bring-back. */
function rowReader(db: ReadableDB): (id: string) => FinishedTaskRows | null {
  const response = db.prepare<[string], Row>('SELECT * FROM responses WHERE id = ?');
  const task = db.prepare<[string], Row>('SELECT * FROM tasks WHERE response_id = ?');
  const events = db.prepare<[unknown], Row>('SELECT * FROM task_events WHERE task_id = ? ORDER BY sequence_number');
  return (id) => {
    const r = response.get(id);
    const t = r ? task.get(id) : undefined;
    return r && t ? { response: r, task: t, events: events.all(t.id) } : null;
  };
}

function finished(rows: FinishedTaskRows): boolean {
  const s = rows.task.status;
  return typeof s === 'string' && isTaskStatus(s) && isTerminal(s);
}

/** A client the live data does not know (a new machine) is not invented: the copy belongs to no client (admin sees it). */
function withKnownClient(knownClient: (id: string) => boolean, rows: FinishedTaskRows): FinishedTaskRows {
  const known = (id: unknown): boolean => typeof id === 'string' && knownClient(id);
  const fix = (row: Row): Row => (row.client_id === null || known(row.client_id) ? row : { ...row, client_id: null });
  return { ...rows, response: fix(rows.response), task: fix(rows.task) };
}

/**
 * A conversation of the generation, copied into the live data with its items (but those deleted on
 * purpose since, unless undeleting); returns the ids of its responses, which come back with it.
 */
function copyConversation(input: BringBackInput, id: string, deletedItems: ReadonlySet<string>, knownClient: (id: string) => boolean): string[] {
  const { live, opened } = input;
  const conversation = opened.db.prepare<[string], Row>('SELECT * FROM conversations WHERE id = ?').get(id);
  if (!conversation) return [];
  const client = conversation.client_id;
  // The generation's copy is migrated to this version (generation-copy.ts), so it has updated_at.
  live
    .prepare('INSERT INTO conversations (id, client_id, metadata, created_at, updated_at) VALUES (?, ?, ?, ?, ?)')
    .run(
      id,
      typeof client === 'string' && knownClient(client) ? client : null,
      conversation.metadata,
      conversation.created_at,
      conversation.updated_at ?? conversation.created_at,
    );
  const insertItem = live.prepare('INSERT INTO conversation_items (conversation_id, position, id, data, response_id, created_at) VALUES (?, ?, ?, ?, ?, ?)');
  for (const item of opened.db.prepare<[string], Row>('SELECT * FROM conversation_items WHERE conversation_id = ? ORDER BY position').all(id)) {
    if (!input.undelete && deletedItems.has(`${id}/${String(item.id)}`)) continue;
    insertItem.run(id, item.position, item.id, item.data, item.response_id, item.created_at);
  }
  return opened.db
    .prepare<[string], { id: string }>('SELECT id FROM responses WHERE conversation_id = ? ORDER BY id')
    .all(id)
    .map((r) => r.id);
}

export function bringBack(input: BringBackInput): BringBackResult {
  const { live, opened } = input;
  const journal = input.journal.read();
  const deleted = new Set(journal.filter((d) => d.kind !== 'conversation_item').map((d) => d.id));
  const deletedItems = new Set(journal.filter((d) => d.kind === 'conversation_item').map((d) => `${d.conversation_id ?? ''}/${d.id}`));
  const requested = [...new Set(input.ids)];
  const result = input.live.transaction((): BringBackResult => {
    const brought: string[] = [];
    const skipped: Array<{ id: string; reason: SkipReason }> = [];
    const copies: FinishedTaskRows[] = [];
    const read = rowReader(opened.db);
    const liveHas = live.prepare<[string], unknown>('SELECT 1 FROM responses WHERE id = ?');
    const clientKnown = live.prepare<[string], unknown>('SELECT 1 FROM clients WHERE id = ?');
    const knownClient = (c: string): boolean => clientKnown.get(c) !== undefined;
    // A conversation comes back with its items and every one of its responses.
    const liveHasConversation = live.prepare<[string], unknown>('SELECT 1 FROM conversations WHERE id = ?');
    const generationHasConversation = opened.db.prepare<[string], unknown>('SELECT 1 FROM conversations WHERE id = ?');
    const withTheirs: string[] = [];
    for (const id of requested) {
      if (!id.startsWith('conv_')) {
        withTheirs.push(id);
        continue;
      }
      const reason: SkipReason | null =
        generationHasConversation.get(id) === undefined
          ? 'not_in_generation'
          : liveHasConversation.get(id) !== undefined
            ? 'exists'
            : deleted.has(id) && !input.undelete
              ? 'deleted'
              : null;
      if (reason !== null) {
        skipped.push({ id, reason });
        continue;
      }
      withTheirs.push(...copyConversation(input, id, deletedItems, knownClient));
      brought.push(id);
    }
    const unique = [...new Set(withTheirs)];
    for (const id of unique) {
      const rows = read(id);
      const reason: SkipReason | null = !rows
        ? 'not_in_generation'
        : liveHas.get(id) !== undefined
          ? 'exists'
          : deleted.has(id) && !input.undelete
            ? 'deleted'
            : !finished(rows)
              ? 'unfinished'
              : null;
      if (!rows || reason !== null) {
        skipped.push({ id, reason: reason ?? 'not_in_generation' });
        continue;
      }
      copies.push(withKnownClient(knownClient, rows));
      brought.push(id);
    }
    adoptFinishedTasks(live, copies);
    const audit = live.prepare('INSERT INTO bring_backs (response_id, generation, repo, snapshot_id, by_whom, undeleted, at) VALUES (?, ?, ?, ?, ?, ?, ?)');
    for (const id of brought) audit.run(id, opened.g.generation, opened.g.repo, opened.g.snapshot_id, input.by, deleted.has(id) ? 1 : 0, input.nowS);
    return { generation: opened.g.generation, repo: opened.g.repo, brought_back: brought, skipped };
  })();
  const undeleted = new Set(result.brought_back.filter((id) => deleted.has(id)));
  const broughtConversations = new Set(result.brought_back.filter((id) => id.startsWith('conv_')));
  // Undeleting a conversation undeletes its items too.
  const stillDeleted = (d: Deletion): boolean =>
    !undeleted.has(d.id) && !(input.undelete && d.kind === 'conversation_item' && broughtConversations.has(d.conversation_id ?? ''));
  if (undeleted.size > 0 || (input.undelete && broughtConversations.size > 0)) input.journal.rewrite(stillDeleted);
  return result;
}

export function listBringBacks(db: ReadableDB, limit = 100): BringBackEntry[] {
  return db
    .prepare<[number], { response_id: string; generation: number; repo: string; snapshot_id: string; by_whom: string; undeleted: number; at: number }>(
      'SELECT response_id, generation, repo, snapshot_id, by_whom, undeleted, at FROM bring_backs ORDER BY id DESC LIMIT ?',
    )
    .all(limit)
    .map((r) => ({
      response_id: r.response_id,
      generation: r.generation,
      repo: r.repo,
      snapshot_id: r.snapshot_id,
      by: r.by_whom,
      undeleted: r.undeleted === 1,
      at: r.at,
    }));
}
