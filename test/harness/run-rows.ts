// Runs written straight into a store, as their owner (src/jobs/runs.ts) writes them, for tests of
// what reads them (the drill schedule, the drill alerts, the content mark) without running restic.
import { recordDrillDetails, setDrillChecks } from '../../src/drill/drill-runs.js';
import type { DrillCheck, DrillKind, Verdict } from '../../src/drill/verdict.js';
import { endRun, openRun, type EndedStatus, type OpenRun, type RunKind } from '../../src/jobs/runs.js';
import type { Db } from '../../src/store/open.js';
import { tempDir } from './data-dir.js';

const lockDirs = new WeakMap<Db, string>();

/** Where this store's run locks go: a temporary folder per store (a `:memory:` one has no data dir). */
export function runDir(db: Db): string {
  let dir = lockDirs.get(db);
  if (dir === undefined) {
    dir = tempDir('sanad-runs-');
    lockDirs.set(db, dir);
  }
  return dir;
}

export function beginRun(db: Db, kind: RunKind, trigger: string, atMs: number): OpenRun {
  return openRun(db, runDir(db), { kind, trigger, status: 'running', nowMs: atMs });
}

export function finishRun(db: Db, run: OpenRun, status: EndedStatus, atMs: number, error: string | null = null): void {
  endRun(db, runDir(db), run, { status, error }, atMs);
}

/** A drill that started, then (unless `open`) ended `ok` with its verdict; times in Unix seconds. */
export function drillRow(
  db: Db,
  input: { kind: DrillKind; trigger: string; repo?: string | null; startedAt: number },
): { run: OpenRun; finish: (verdict: Verdict, checks: readonly DrillCheck[], finishedAt: number) => void } {
  const run = beginRun(db, 'drill', input.trigger, input.startedAt * 1000);
  recordDrillDetails(db, run.id, { kind: input.kind, repo: input.repo ?? null });
  return {
    run,
    finish: (verdict, checks, finishedAt) => {
      setDrillChecks(db, run.id, { verdict, checks });
      finishRun(db, run, 'ok', finishedAt * 1000);
    },
  };
}
