// The deletion journal: every response deleted on purpose (DELETE /v1/responses/{id}, the
// retention sweep, a `store: false` answer), every conversation and conversation item deleted
// (DELETE /v1/conversations/{id}, …/items/{item}), by id and time only, never its content. It lives
// beside the store, outside it (`<data-dir>/deletions.jsonl`), so restoring an older store cannot
// take it back in time; each generation carries a copy, so a new machine has it too. A restore
// applies it again (the Kazma lesson: a restored copy brought back what had been deleted).
//
// Append-only and crash-safe: one JSON line per deletion, appended with O_APPEND and fsynced
// before the delete commits (write-ahead: a crash in between leaves the id journalled and the
// response still there, which the next delete or restore removes; never the other way round). A
// line torn by a crash does not parse and is skipped; the next append starts on a fresh line.
// Rewrites (compaction, an undelete) go through a temporary file and a rename, by the process
// that holds the instance lock.
import { closeSync, existsSync, fstatSync, fsyncSync, openSync, readFileSync, readSync, renameSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { z } from 'zod/v3';
import { journalPath } from '../files/data-dir-layout.js';

export const DeletionSchema = z.object({
  kind: z.enum(['response', 'conversation', 'conversation_item']),
  id: z.string().min(1).max(200),
  /** The conversation of a deleted conversation item (item ids are unique within one). */
  conversation_id: z.string().min(1).max(200).optional(),
  /** Unix seconds of the deletion. */
  at: z.number().int().nonnegative(),
  why: z.enum(['deleted', 'retention', 'unstored']),
});
export type Deletion = z.infer<typeof DeletionSchema>;

/** The deletions in a journal's text; torn or foreign lines are skipped. */
export function parseJournal(text: string): Deletion[] {
  const out: Deletion[] = [];
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    let json: unknown;
    try {
      json = JSON.parse(line);
    } catch {
      continue;
    }
    const parsed = DeletionSchema.safeParse(json);
    if (parsed.success) out.push(parsed.data);
  }
  return out;
}

/** What a deletion is of: its kind and id (and an item's conversation). */
export function deletionKey(d: Pick<Deletion, 'kind' | 'id' | 'conversation_id'>): string {
  return `${d.kind}:${d.conversation_id ?? ''}:${d.id}`;
}

/** The union of several journals, one entry per deleted thing (the earliest deletion kept). */
export function unionOf(...journals: Deletion[][]): Deletion[] {
  const byId = new Map<string, Deletion>();
  for (const d of journals.flat()) {
    const key = deletionKey(d);
    const seen = byId.get(key);
    if (!seen || d.at < seen.at) byId.set(key, d);
  }
  return [...byId.values()].sort((a, b) => a.at - b.at || a.id.localeCompare(b.id));
}

function fsyncDir(dir: string): void {
  const fd = openSync(dir, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

function endsMidLine(fd: number): boolean {
  const size = fstatSync(fd).size;
  if (size === 0) return false;
  const last = Buffer.alloc(1);
  readSync(fd, last, 0, 1, size - 1);
  return last[0] !== 0x0a;
}

export class DeletionJournal {
  constructor(readonly path: string) {}

  static of(dataDir: string): DeletionJournal {
    return new DeletionJournal(journalPath(dataDir));
  }

  /** Appends and fsyncs; returns once the lines are on disk. Synchronous, so it can sit inside the
   *  delete's transaction, before its commit. */
  record(entries: readonly Deletion[]): void {
    if (entries.length === 0) return;
    const created = !existsSync(this.path);
    const fd = openSync(this.path, 'a+', 0o600);
    try {
      const lead = endsMidLine(fd) ? '\n' : '';
      writeSync(fd, lead + entries.map((e) => `${JSON.stringify(e)}\n`).join(''));
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    if (created) fsyncDir(dirname(this.path));
  }

  read(): Deletion[] {
    if (!existsSync(this.path)) return [];
    return parseJournal(readFileSync(this.path, 'utf8'));
  }

  /** The journal's raw bytes (for a generation's copy), or null when nothing was ever deleted. */
  bytes(): Buffer | null {
    return existsSync(this.path) ? readFileSync(this.path) : null;
  }

  /** Keeps only the entries `keep` says yes to; returns how many went. */
  rewrite(keep: (d: Deletion) => boolean): number {
    const all = this.read();
    const kept = all.filter(keep);
    if (kept.length === all.length) return 0;
    writeJournal(this.path, kept);
    return all.length - kept.length;
  }
}

/** Writes a whole journal durably: a temporary file, fsync, rename, fsync of the folder. */
export function writeJournal(path: string, entries: readonly Deletion[]): void {
  const tmp = `${path}.tmp`;
  const fd = openSync(tmp, 'w', 0o600);
  try {
    writeSync(fd, entries.map((e) => `${JSON.stringify(e)}\n`).join(''));
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, path);
  fsyncDir(dirname(path));
}
