// What changed between two stores (a generation and a later one, or the live data): responses and
// tasks added, removed and changed, conversations added, removed and changed, clients added, revoked and removed, models added, removed or
// changed (fingerprint), settings changed. Each side is read once into id → fingerprint maps; a
// response "changed" when its text, its task's status or its event count moved.
import type { GenerationDiff } from '../contract/history.js';
import type { ReadableDB } from '../store/open.js';
import { readSettings } from '../store/settings.js';
import { diffNames } from './diff-names.js';

type Prints = Map<string, string>;

function prints(db: ReadableDB, sql: string): Prints {
  return new Map(
    db
      .prepare<[], { id: string; p: string | null }>(sql)
      .all()
      .map((r) => [r.id, r.p ?? '']),
  );
}

function compare(a: Prints, b: Prints): { added: string[]; removed: string[]; changed: string[] } {
  const added = [...b.keys()].filter((id) => !a.has(id));
  const removed = [...a.keys()].filter((id) => !b.has(id));
  const changed = [...a.keys()].filter((id) => b.has(id) && a.get(id) !== b.get(id));
  return { added: added.sort(), removed: removed.sort(), changed: changed.sort() };
}

const RESPONSES = `SELECT r.id, coalesce(t.status, '') || '|' || coalesce(t.last_sequence_number, '') || '|' || coalesce(r.output_text, '') || '|' || coalesce(r.metadata, '') AS p
  FROM responses r LEFT JOIN tasks t ON t.response_id = r.id`;
const TASKS = `SELECT id, status || '|' || last_sequence_number || '|' || coalesce(error_code, '') AS p FROM tasks`;
const MODELS = `SELECT id, sha256 || '|' || size_bytes AS p FROM models`;
const CLIENTS = `SELECT id, coalesce(revoked_at, '') AS p FROM clients`;
// A conversation "changed" when its metadata or its items (how many, which last) moved.
const CONVERSATIONS = `SELECT c.id, coalesce(c.metadata, '') || '|' || (SELECT COUNT(*) FROM conversation_items i WHERE i.conversation_id = c.id)
    || '|' || coalesce((SELECT id FROM conversation_items i WHERE i.conversation_id = c.id ORDER BY position DESC LIMIT 1), '') AS p
  FROM conversations c`;

export function diffStores(from: ReadableDB, to: ReadableDB, labels: { from: number; to: number | 'live' }): GenerationDiff {
  const clientsA = prints(from, CLIENTS);
  const clientsB = prints(to, CLIENTS);
  const settingsA: Record<string, unknown> = { ...readSettings(from) };
  const settingsB: Record<string, unknown> = { ...readSettings(to) };
  const keys = [...new Set([...Object.keys(settingsA), ...Object.keys(settingsB)])].sort();
  const diff = {
    from: labels.from,
    to: labels.to,
    responses: compare(prints(from, RESPONSES), prints(to, RESPONSES)),
    tasks: compare(prints(from, TASKS), prints(to, TASKS)),
    clients: {
      added: [...clientsB.keys()].filter((id) => !clientsA.has(id)).sort(),
      // Revoked in between: live (empty revoked_at) before, revoked after.
      revoked: [...clientsA.entries()]
        .filter(([id, p]) => p === '' && (clientsB.get(id) ?? '') !== '')
        .map(([id]) => id)
        .sort(),
      removed: [...clientsA.keys()].filter((id) => !clientsB.has(id)).sort(),
    },
    models: compare(prints(from, MODELS), prints(to, MODELS)),
    conversations: compare(prints(from, CONVERSATIONS), prints(to, CONVERSATIONS)),
    settings: {
      changed: keys
        .filter((k) => JSON.stringify(settingsA[k]) !== JSON.stringify(settingsB[k]))
        .map((k) => ({ key: k, from: settingsA[k] ?? null, to: settingsB[k] ?? null })),
    },
  };
  return { ...diff, names: diffNames(from, to, diff) };
}
