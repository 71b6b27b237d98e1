// The one owner of a drill's details: drill_details (daily or deep, the repository, the verdict and
// the checklist), keyed by the run's id in `runs` (jobs/runs.ts opens and ends the run, prunes old
// ones and settles one a crash cut short). The reads join the two and show times in Unix seconds,
// as the drill answers always have.
import { say } from '../contract/said/index.js';
import { SaidParams } from '../contract/said.js';
import type { RunStatus } from '../contract/runs.js';
import { z } from 'zod/v3';
import type { Db, ReadableDB } from '../store/open.js';
import type { DrillCheck, DrillKind, Verdict } from './verdict.js';

export const KEEP_RUNS = 500;

export type DrillRunStatus = RunStatus;

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

const SELECT = `SELECT r.id, d.depth AS kind, r.trigger, d.repo, r.status, d.verdict, d.checks, r.started_at / 1000 AS started_at, r.ended_at / 1000 AS finished_at
  FROM runs r JOIN drill_details d ON d.run_id = r.id`;

// A run stored before checks had codes has none: its English detail is shown as it is.
const Checks = z.array(
  z
    .object({
      name: z.string(),
      status: z.enum(['pass', 'fail', 'unverified']),
      detail: z.string(),
      code: z.string().default('said.text'),
      params: SaidParams.optional(),
    })
    .transform((c) => ({ ...c, params: c.params ?? { text: c.detail } })),
);

function toRun(row: Row): DrillRun {
  const parsed = Checks.safeParse(safeJson(row.checks));
  return { ...row, checks: parsed.success ? parsed.data : [] };
}

/** The drill's own details, written as its run starts (so the GUI can show what it drills). */
export function recordDrillDetails(db: Db, runId: number, input: { kind: DrillKind; repo: string | null }): void {
  db.prepare('INSERT INTO drill_details(run_id, depth, repo) VALUES (?, ?, ?)').run(runId, input.kind, input.repo);
}

/** The verdict and checklist: of a drill that finished, or the checks one got to before it was stopped. */
export function setDrillChecks(db: Db, runId: number, result: { verdict: Verdict; checks: readonly DrillCheck[] }): void {
  db.prepare('UPDATE drill_details SET verdict = ?, checks = ? WHERE run_id = ?').run(result.verdict, JSON.stringify(result.checks), runId);
}

/** A drill whose process died: no verdict about the backups; the checklist says why. */
export function settleDrillDetails(db: Db, runId: number): void {
  const checks = [{ name: 'drill', status: 'unverified', ...say('drill.process_ended') }];
  db.prepare("UPDATE drill_details SET verdict = 'UNVERIFIED', checks = ? WHERE run_id = ?").run(JSON.stringify(checks), runId);
}

export function getDrillRun(db: ReadableDB, id: number): DrillRun | null {
  const row = db.prepare<[number], Row>(`${SELECT} WHERE r.id = ?`).get(id);
  return row ? toRun(row) : null;
}

/** Newest first. */
export function listDrillRuns(db: ReadableDB, limit = 50): DrillRun[] {
  return db.prepare<[number], Row>(`${SELECT} ORDER BY r.id DESC LIMIT ?`).all(limit).map(toRun);
}

/**
 * The newest finished drill of every enabled repository (`repo` null). Without a kind, any kind:
 * a deep drill runs every daily check, so it counts as the daily one too.
 */
export function lastFinishedRun(db: ReadableDB, kind?: DrillKind): DrillRun | null {
  const row =
    kind === undefined
      ? db.prepare<[], Row>(`${SELECT} WHERE r.status = 'ok' AND d.repo IS NULL ORDER BY r.ended_at DESC, r.id DESC LIMIT 1`).get()
      : db.prepare<[string], Row>(`${SELECT} WHERE r.status = 'ok' AND d.repo IS NULL AND d.depth = ? ORDER BY r.ended_at DESC, r.id DESC LIMIT 1`).get(kind);
  return row ? toRun(row) : null;
}

/** Every finished run's scope and verdict, oldest first, for deciding which alerts a pass clears. */
export function finishedScopes(db: Db): Array<Pick<DrillRun, 'id' | 'kind' | 'repo' | 'verdict'>> {
  return db
    .prepare<[], Pick<DrillRun, 'id' | 'kind' | 'repo' | 'verdict'>>(
      "SELECT r.id, d.depth AS kind, d.repo, d.verdict FROM runs r JOIN drill_details d ON d.run_id = r.id WHERE r.status = 'ok' ORDER BY r.id",
    )
    .all();
}

function safeJson(text: string): unknown {
  try {
    const value: unknown = JSON.parse(text);
    return value;
  } catch {
    return undefined;
  }
}
