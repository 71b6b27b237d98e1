// The `drill_runs` table: the one place drill history is written and read. A row is inserted when a
// drill starts (so the GUI can follow it by id) and finished with its verdict and checklist; rows of
// drills that died are marked `interrupted`; history is kept to the newest KEEP_RUNS rows.
import { say } from '../contract/said/index.js';
import { SaidParams } from '../contract/said.js';
import { z } from 'zod/v3';
import type { Db, ReadableDB } from '../store/open.js';
import type { DrillCheck, DrillKind, Verdict } from './verdict.js';

export const KEEP_RUNS = 500;

export type DrillRunStatus = 'running' | 'finished' | 'interrupted';

export interface DrillRun {
  id: number;
  kind: DrillKind;
  trigger: string;
  /** The one repository drilled, or null for every enabled one. */
  repo: string | null;
  status: DrillRunStatus;
  verdict: Verdict | null;
  checks: DrillCheck[];
  started_at: number;
  finished_at: number | null;
}

interface Row extends Omit<DrillRun, 'checks'> {
  checks: string;
}

// A run stored before checks had codes has none: its English detail is shown as it is.
const Checks = z.array(z.object({ name: z.string(), status: z.enum(['pass', 'fail', 'unverified']), detail: z.string(), code: z.string().default('said.text'), params: SaidParams.optional() }).transform((c) => ({ ...c, params: c.params ?? { text: c.detail } })));

function toRun(row: Row): DrillRun {
  const parsed = Checks.safeParse(safeJson(row.checks));
  return { ...row, checks: parsed.success ? parsed.data : [] };
}

export function startDrillRun(db: Db, input: { kind: DrillKind; trigger: string; repo: string | null; startedAt: number }): number {
  return Number(
    db.prepare("INSERT INTO drill_runs(kind, trigger, repo, status, started_at) VALUES (?, ?, ?, 'running', ?)")
      .run(input.kind, input.trigger, input.repo, input.startedAt).lastInsertRowid,
  );
}

export function finishDrillRun(db: Db, id: number, result: { verdict: Verdict; checks: readonly DrillCheck[]; finishedAt: number }): void {
  db.prepare("UPDATE drill_runs SET status = 'finished', verdict = ?, checks = ?, finished_at = ? WHERE id = ?")
    .run(result.verdict, JSON.stringify(result.checks), result.finishedAt, id);
}

/** Rows left `running` by a process that died; call only while holding the drill lock. */
export function markInterrupted(db: Db, nowS: number): number {
  const checks = JSON.stringify([{ name: 'drill', status: 'unverified', ...say('drill.process_ended') }]);
  return db.prepare("UPDATE drill_runs SET status = 'interrupted', verdict = 'UNVERIFIED', checks = ?, finished_at = ? WHERE status = 'running'")
    .run(checks, nowS).changes;
}

export function getDrillRun(db: ReadableDB, id: number): DrillRun | null {
  const row = db.prepare<[number], Row>('SELECT * FROM drill_runs WHERE id = ?').get(id);
  return row ? toRun(row) : null;
}

/** Newest first. */
export function listDrillRuns(db: ReadableDB, limit = 50): DrillRun[] {
  return db.prepare<[number], Row>('SELECT * FROM drill_runs ORDER BY id DESC LIMIT ?').all(limit).map(toRun);
}

/**
 * The newest finished drill of every enabled repository (`repo` null). Without a kind, any kind:
 * a deep drill runs every daily check, so it counts as the daily one too.
 */
export function lastFinishedRun(db: ReadableDB, kind?: DrillKind): DrillRun | null {
  const row = kind === undefined
    ? db.prepare<[], Row>("SELECT * FROM drill_runs WHERE status = 'finished' AND repo IS NULL ORDER BY finished_at DESC, id DESC LIMIT 1").get()
    : db.prepare<[string], Row>("SELECT * FROM drill_runs WHERE status = 'finished' AND repo IS NULL AND kind = ? ORDER BY finished_at DESC, id DESC LIMIT 1").get(kind);
  return row ? toRun(row) : null;
}

/** Every finished run's scope and verdict, oldest first, for deciding which alerts a pass clears. */
export function finishedScopes(db: Db): Array<Pick<DrillRun, 'id' | 'kind' | 'repo' | 'verdict'>> {
  return db.prepare<[], Pick<DrillRun, 'id' | 'kind' | 'repo' | 'verdict'>>("SELECT id, kind, repo, verdict FROM drill_runs WHERE status = 'finished' ORDER BY id").all();
}

export function pruneDrillRuns(db: Db, keep = KEEP_RUNS): number {
  return db.prepare("DELETE FROM drill_runs WHERE status != 'running' AND id NOT IN (SELECT id FROM drill_runs ORDER BY id DESC LIMIT ?)").run(keep).changes;
}

function safeJson(text: string): unknown {
  try {
    const value: unknown = JSON.parse(text);
    return value;
  } catch {
    return undefined;
  }
}

/** A drill this process stopped (shutdown): recorded as interrupted, with the checks it got to. */
export function interruptDrillRun(db: Db, id: number, checks: readonly DrillCheck[], nowS: number): void {
  db.prepare("UPDATE drill_runs SET status = 'interrupted', verdict = 'UNVERIFIED', checks = ?, finished_at = ? WHERE id = ?").run(JSON.stringify(checks), nowS, id);
}
