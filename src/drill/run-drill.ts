// One drill: every enabled repository (or the one named), daily or deep, never writing to a backup
// (restic runs with --no-lock; restores go to a scratch dir that is removed). Never two drills at
// once on a data dir, across processes (a file lock). The run is recorded from its start (so the GUI
// can follow it by id), finished with its verdict and checklist, and turned into alerts.
import { say } from '../contract/said/index.js';
import { errorParam } from '../contract/said.js';
import { mkdir } from 'node:fs/promises';
import { unixSeconds } from '../clock.js';
import { getRepository, listRepositories, type Repository } from '../repository/repositories.js';
import { tryFileLock } from '../store/file-lock.js';
import { Checklist, type DrillProgress } from './checklist.js';
import { checkOffsiteCopies } from './checks/offsite-copies.js';
import type { DrillDeps } from './drill-deps.js';
import { applyDrillAlerts } from './drill-alerts.js';
import { recordDrillDetails, setDrillChecks } from './drill-runs.js';
import { planSubset } from './read-subset.js';
import { drillRepository, plannedChecks } from './repo-drill.js';
import { drillLockPath, removeLeftoverScratch } from './scratch.js';
import { unverified, verdictOf, type DrillCheck, type DrillKind, type Verdict } from './verdict.js';
import { drillsDir } from '../files/data-dir-layout.js';

export const OFFSITE_COPY_CHECK = 'offsite-copy:read-back';

export class DrillBusyError extends Error {
  constructor() {
    super('A drill is already running on this data dir; wait for it to finish.');
    this.name = 'DrillBusyError';
  }
}

export class UnknownRepositoryError extends Error {
  constructor(name: string) {
    super(`There is no repository named "${name}"; \`sanad repo list\` shows them.`);
    this.name = 'UnknownRepositoryError';
  }
}

export interface RunDrillOptions {
  /** The run this drill is recorded under (its owner, jobs/, opened it and ends it). */
  run: { readonly id: number };
  kind: DrillKind;
  /** Who asked: `schedule`, `cli`, `api`. */
  trigger: string;
  /** One repository by name; every enabled one when absent. */
  repo?: string;
  signal?: AbortSignal;
  /** Called once it holds the drill lock and its details are recorded, before any check runs. */
  onStarted?: () => void;
  onProgress?: (p: DrillProgress) => void;
}

export interface DrillResult {
  id: number;
  kind: DrillKind;
  trigger: string;
  repo: string | null;
  verdict: Verdict;
  checks: DrillCheck[];
  started_at: number;
  finished_at: number;
  /** True when the drill was stopped (shutdown) before it finished; it then raises no alert. */
  interrupted: boolean;
}

function selectRepositories(deps: DrillDeps, name: string | undefined): Repository[] {
  if (name === undefined) return listRepositories(deps.db).filter((r) => r.enabled);
  const repo = getRepository(deps.db, name);
  if (!repo) throw new UnknownRepositoryError(name);
  return [repo];
}

export async function runDrill(deps: DrillDeps, options: RunDrillOptions): Promise<DrillResult> {
  const repos = selectRepositories(deps, options.repo);
  await mkdir(drillsDir(deps.dataDir), { recursive: true, mode: 0o700 });
  const lock = tryFileLock(drillLockPath(deps.dataDir));
  if (!lock) throw new DrillBusyError();
  try {
    return await runLocked(deps, options, repos);
  } finally {
    lock.release();
  }
}

async function runLocked(deps: DrillDeps, options: RunDrillOptions, repos: Repository[]): Promise<DrillResult> {
  const { db, clock, logger } = deps;
  // Holding the drill lock: any scratch dir belongs to a drill that died.
  await removeLeftoverScratch(deps.dataDir);
  const repo = options.repo ?? null;
  const startedAt = unixSeconds(clock);
  const id = options.run.id;
  recordDrillDetails(db, id, { kind: options.kind, repo });
  options.onStarted?.();

  const t = deps.settings.drill_read_subset_total;
  const planned = repos.map((r) => ({ repo: r, plan: planSubset(db, r.name, t) }));
  const destination = options.kind === 'deep' && repo === null ? deps.settings.offsite_copy_destination : null;
  const total = planned.reduce((n, p) => n + plannedChecks(options.kind, p.plan).length, destination ? 1 : 0);
  const list = new Checklist(total, options.onProgress);
  if (repos.length === 0) await list.run(null, 'repositories', () => unverified(say('drill.no_repository')));
  for (const { repo: r, plan } of planned) {
    try {
      await drillRepository(deps, r, options.kind, plan, list, options.signal);
    } catch (error) {
      // Only the scratch dir's making or removal can land here; the checks catch their own errors.
      await list.run(r.name, 'drill', () => unverified(say('drill.repo_stopped', { repo: r.name, error: errorParam(error) })));
    }
  }
  if (destination) await list.run(null, OFFSITE_COPY_CHECK, () => checkOffsiteCopies(deps, destination, options.signal));

  const verdict = verdictOf(list.checks);
  const finishedAt = unixSeconds(clock);
  const interrupted = options.signal?.aborted === true;
  const result: DrillResult = {
    id,
    kind: options.kind,
    trigger: options.trigger,
    repo,
    verdict,
    checks: list.checks,
    started_at: startedAt,
    finished_at: finishedAt,
    interrupted,
  };
  if (interrupted) {
    // Stopped by a shutdown: no verdict about the backups, so no alert and no schedule credit.
    setDrillChecks(db, id, { verdict: 'UNVERIFIED', checks: list.checks });
    logger.info('drill interrupted', { id, kind: options.kind });
    return result;
  }
  setDrillChecks(db, id, { verdict, checks: list.checks });
  applyDrillAlerts(db, clock, { id, kind: options.kind, repo, verdict, checks: list.checks });
  const failing = list.checks.filter((c) => c.status !== 'pass').map((c) => `${c.name}:${c.status}`);
  logger.info(`drill ${verdict}`, { id, kind: options.kind, trigger: options.trigger, repo, checks: list.checks.length, not_passed: failing });
  return result;
}
