// Deletions stay deleted: before a restored store is ever opened, every response deleted on
// purpose since (or before) the generation was made is removed from it again. The deletions are
// the union of the live data dir's journal (this machine) and the journal of the newest
// generation in the repository (a new machine, where the live journal is absent or another
// one), plus the chosen generation's own. The restored dir gets that union as its journal, so it
// keeps honouring them.
import Database from 'better-sqlite3';
import { readFile } from 'node:fs/promises';
import type { Restic, ResticRepo } from '../repository/restic/index.js';
import { ResticError } from '../repository/restic/index.js';
import { DeletionJournal, parseJournal, unionOf, writeJournal, type Deletion } from '../store/deletion-journal.js';
import { applyDeletions } from '../tasks/retention.js';
import { generationFile, type SnapshotGeneration } from './snapshot-generations.js';
import { JOURNAL_FILE, journalPath } from '../files/data-dir-layout.js';

/** A generation's journal read out of restic; null when the generation has none (made before it existed). */
export async function dumpJournal(restic: Restic, repo: ResticRepo, g: SnapshotGeneration, signal?: AbortSignal): Promise<Deletion[] | null> {
  try {
    const text = await restic.dumpText(repo, g.snapshot_id, generationFile(g, JOURNAL_FILE), { maxBytes: 256 * 1024 * 1024, ...(signal ? { signal } : {}) });
    return parseJournal(text);
  } catch (err) {
    // restic says `path "…" not found in snapshot` (exit 1 or 2 by version) for a file it lacks.
    if (err instanceof ResticError && err.stderrTail.some((l) => /not found in snapshot/.test(l))) return null;
    throw err;
  }
}

function liveJournal(liveDataDir: string): Deletion[] {
  try {
    return DeletionJournal.of(liveDataDir).read();
  } catch {
    // A live data dir that cannot be read (a new machine, a damaged disk) contributes nothing.
    return [];
  }
}

export interface Reapplied {
  applied: string[];
  journal: number;
  fromLive: number;
  fromNewest: number | null;
}

export async function reapplyDeletions(input: {
  restic: Restic;
  repo: ResticRepo;
  chosen: SnapshotGeneration;
  newest: SnapshotGeneration;
  /** The chosen generation's own journal file in the work folder, already verified; null when it has none. */
  chosenJournal: string | null;
  liveDataDir: string;
  target: string;
  storeFile: string;
  signal?: AbortSignal;
}): Promise<Reapplied> {
  const own = input.chosenJournal ? parseJournal(await readFile(input.chosenJournal, 'utf8')) : [];
  const live = liveJournal(input.liveDataDir);
  const newest = input.newest.snapshot_id === input.chosen.snapshot_id ? own : await dumpJournal(input.restic, input.repo, input.newest, input.signal);
  const all = unionOf(own, live, newest ?? []);
  writeJournal(journalPath(input.target), all);
  // A plain connection in the copy's rollback-journal mode, as point-registry.ts does.
  const db = new Database(input.storeFile, { fileMustExist: true });
  try {
    db.pragma('secure_delete = ON');
    const applied = applyDeletions(db, all);
    return { applied, journal: all.length, fromLive: live.length, fromNewest: newest === null ? null : newest.length };
  } finally {
    db.close();
  }
}
