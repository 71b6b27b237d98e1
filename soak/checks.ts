// The soak's verdict, read from the store itself once the service has stopped, and from the newest
// generation restored into a new folder: nothing a client saw acknowledged is lost.
import { readFileSync } from 'node:fs';
import Database from 'better-sqlite3';
import { parseJournal } from '../src/store/deletion-journal.js';
import type { SoakLedger } from './workload.js';
import { journalPath, storePath } from '../src/files/data-dir-layout.js';

export interface StoreVerdict {
  lost: string[];
  /** Tasks of any client still not terminal. */
  open: number;
  conversationsLost: string[];
}

const gone = (ledger: SoakLedger, journal: Set<string>, id: string): boolean => journal.has(id) || ledger.deleteAsked.has(id);

/** Every acknowledged response is there with a terminal task and a gap-free event log (or was deleted
 *  on purpose); every conversation made is there with the turns it was told of (or was deleted). */
export function checkStore(dataDir: string, ledger: SoakLedger, started: number, kills: number[]): StoreVerdict {
  const db = new Database(storePath(dataDir), { readonly: true });
  const journal = journalIds(dataDir);
  const lost: string[] = [];
  const task = db.prepare<[string], { id: string; status: string; last_sequence_number: number }>(
    'SELECT id, status, last_sequence_number FROM tasks WHERE response_id = ?',
  );
  const events = db.prepare<[string], { n: number }>('SELECT sequence_number AS n FROM task_events WHERE task_id = ? ORDER BY sequence_number');
  try {
    for (const a of ledger.acked) {
      const row = task.get(a.id);
      if (!row) {
        if (!gone(ledger, journal, a.id)) {
          const kill = kills.map((k) => k - a.at).find((d) => d >= 0);
          const when = `${a.how} at ${((a.at - started) / 1000).toFixed(1)} s${kill === undefined ? '' : `, the service killed ${kill} ms later`}`;
          lost.push(`${a.id} (${when}; no task, not in the journal)`);
        }
        continue;
      }
      const seqs = events.all(row.id).map((r) => r.n);
      const gapFree = seqs.every((n, i) => n === i + 1) && seqs.length === row.last_sequence_number;
      if (!['completed', 'failed', 'cancelled'].includes(row.status) || !gapFree)
        lost.push(`${a.id} (${row.status}, events ${seqs.length}/${row.last_sequence_number})`);
    }
    const open = db.prepare<[], { n: number }>("SELECT count(*) AS n FROM tasks WHERE status NOT IN ('completed', 'failed', 'cancelled')").get()?.n ?? 0;
    const conversationsLost: string[] = [];
    const conversation = db.prepare<[string], { id: string }>('SELECT id FROM conversations WHERE id = ?');
    const turn = db.prepare<[string, string], { n: number }>('SELECT count(*) AS n FROM conversation_items WHERE conversation_id = ? AND response_id = ?');
    for (const c of ledger.conversations) {
      if (!ledger.conversationDeleteAsked.has(c.id) && !conversation.get(c.id)) conversationsLost.push(`${c.id} (made, never deleted, not in the store)`);
    }
    for (const a of ledger.acked) {
      if (a.conversation === undefined || ledger.conversationDeleteAsked.has(a.conversation)) continue;
      if ((turn.get(a.conversation, a.id)?.n ?? 0) < 2)
        conversationsLost.push(`${a.conversation}: the turn of ${a.id} (its input and answer are not both items)`);
    }
    return { lost, open, conversationsLost };
  } finally {
    db.close();
  }
}

export function journalIds(dataDir: string): Set<string> {
  return new Set(parseJournal(readFileSync(journalPath(dataDir), 'utf8')).map((d) => d.id));
}

/** In a restored data dir: what was acknowledged before `before` and not deleted is there. */
export function checkRestored(restored: string, ledger: SoakLedger, journal: Set<string>, before: number): string[] {
  const copy = new Database(storePath(restored), { readonly: true });
  const missing: string[] = [];
  try {
    const response = copy.prepare<[string], { id: string }>('SELECT id FROM responses WHERE id = ?');
    const conversation = copy.prepare<[string], { id: string }>('SELECT id FROM conversations WHERE id = ?');
    for (const a of ledger.acked) {
      if (a.at >= before || gone(ledger, journal, a.id)) continue;
      if (!response.get(a.id)) missing.push(a.id);
    }
    for (const c of ledger.conversations) {
      if (c.at >= before || ledger.conversationDeleteAsked.has(c.id)) continue;
      if (!conversation.get(c.id)) missing.push(c.id);
    }
    return missing;
  } finally {
    copy.close();
  }
}
