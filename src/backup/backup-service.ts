// The backup side of a running appliance: the schedule, manual runs, maintenance when due, and
// the status the GUI and tray read (progress while running, the age of the last good copy per
// repository, open alerts). Restic children are stopped on shutdown so they release their locks.
import type { Clock } from '../clock.js';
import { unixSeconds } from '../clock.js';
import type { Logger } from '../log/logger.js';
import { stopAllChildren } from '../process/spawn.js';
import type { AdminEvents } from '../service/admin-events.js';
import type { SecretStore } from '../secrets/secret-store.js';
import type { Db } from '../store/open.js';
import type { Settings } from '../store/settings.js';
import { openAlerts, type Alert } from './alerts.js';
import { backupDepsFor } from './backup-deps.js';
import { maintenanceDue, runMaintenance } from './maintenance.js';
import { ProgressThrottle } from './progress-throttle.js';
import { listRepositories } from './repositories.js';
import { toResticRepo } from './restic-target.js';
import { runBackup, type BackupOutcome, type BackupPhase } from './run-backup.js';
import { BackupScheduler } from './schedule.js';

export interface BackupServiceDeps {
  db: Db;
  dataDir: string;
  clock: Clock;
  logger: Logger;
  store: SecretStore;
  settings: () => Settings;
  /** Live progress, ends and alert changes for GET /admin/events. */
  events?: AdminEvents;
  /** Alerts of conditions that are not stored (a full disk cannot record that it is full). */
  liveAlerts?: () => Alert[];
}

/** At most about four progress events a second (the first and every phase change always go out);
 *  a little under 250 ms so restic's four lines a second are not halved by timer jitter. */
const PROGRESS_EVENT_MS = 200;

export interface RepositoryStatus {
  name: string;
  type: string;
  location: string;
  enabled: boolean;
  last_ok_at: number | null;
  last_ok_age_s: number | null;
  last_error: string | null;
  failing: boolean;
}

export interface BackupStatus {
  running: boolean;
  progress: BackupPhase | null;
  paused: boolean;
  interval_hours: number;
  next_run_at: number | null;
  last_run: { id: number; generation: number | null; status: string; started_at: number; finished_at: number | null; error: string | null } | null;
  last_ok_at: number | null;
  repositories: RepositoryStatus[];
  alerts: Alert[];
}

export class BackupService {
  private progress: BackupPhase | null = null;
  private current: Promise<BackupOutcome> | null = null;
  private cancelCurrent: AbortController | null = null;
  private readonly scheduler: BackupScheduler;

  constructor(private readonly deps: BackupServiceDeps) {
    this.scheduler = new BackupScheduler({
      clock: deps.clock,
      intervalMs: () => deps.settings().backup_interval_hours * 3_600_000,
      paused: () => deps.settings().backup_paused,
      lastRunAt: () => {
        const row = deps.db.prepare<[], { t: number | null }>('SELECT MAX(started_at) AS t FROM backup_runs').get();
        return row?.t ? row.t * 1000 : null;
      },
      run: (trigger, signal) => this.run(trigger, signal),
      logger: deps.logger,
    });
  }

  start(): void {
    void this.scheduler.start();
  }

  /** On wake from sleep: one catch-up run if a slot was missed. */
  wake(): void {
    void this.scheduler.wake();
  }

  /** A run now; rejects with BackupBusyError if one is in progress (here or in another process). */
  run(trigger: string, signal?: AbortSignal): Promise<BackupOutcome> {
    const alertsBefore = alertKeys(this.deps.db);
    const cancel = new AbortController();
    const run = this.runOnce(trigger, signal ? AbortSignal.any([signal, cancel.signal]) : cancel.signal).finally(() => {
      this.current = null;
      this.progress = null;
      this.cancelCurrent = null;
    });
    this.current = run;
    this.cancelCurrent = cancel;
    // After `current` is cleared: a client that reads the status on `backup.finished` sees it idle.
    void run.then(
      (outcome) => this.publishFinished(outcome, alertsBefore),
      (err: unknown) => this.publishFinished(null, alertsBefore, err instanceof Error ? err.message : String(err)),
    );
    return run;
  }

  private async runOnce(trigger: string, signal?: AbortSignal): Promise<BackupOutcome> {
    const { db, dataDir, clock, logger, store, events } = this.deps;
    const deps = await backupDepsFor({ db, dataDir, clock, logger, store });
    const throttle = new ProgressThrottle<BackupPhase>(clock, PROGRESS_EVENT_MS, phaseKey, (p) => events?.publish('backup.progress', progressEvent(p)));
    const onProgress = (p: BackupPhase): void => {
      this.progress = p;
      throttle.push(p);
    };
    const outcome = await runBackup(deps, { trigger, onProgress, ...(signal ? { signal } : {}) });
    for (const repo of listRepositories(db).filter((r) => r.enabled)) {
      if (!maintenanceDue(db, clock, repo.name)) continue;
      await runMaintenance(deps.restic, toResticRepo(repo, deps.vault, deps.passphrase), { db, clock, logger, ...(signal ? { signal } : {}) });
    }
    return outcome;
  }

  private publishFinished(outcome: BackupOutcome | null, alertsBefore: string, error: string | null = null): void {
    const { events, db } = this.deps;
    if (!events) return;
    events.publish('backup.finished', {
      run_id: outcome?.run_id ?? null,
      generation: outcome?.generation ?? null,
      status: outcome?.status ?? 'failed',
      repositories: (outcome?.repositories ?? []).map((r) => ({ name: r.name, ok: r.ok, error: r.error })),
      error: outcome?.error ?? error,
    });
    if (alertKeys(db) !== alertsBefore) events.publish('alerts.changed', { alerts: openAlerts(db) });
  }

  /** Interrupts the running backup (the desktop shell on suspend and on Quit): its restic gets
   *  SIGINT and removes its lock, and no later step of that run starts. False if none was running. */
  cancel(): boolean {
    if (this.cancelCurrent === null) return false;
    this.cancelCurrent.abort();
    return true;
  }

  async stop(): Promise<void> {
    const abandon = new AbortController();
    const timer = setTimeout(() => abandon.abort(), 15_000);
    await this.scheduler.stop(abandon.signal);
    clearTimeout(timer);
    // SIGINT first so restic removes its lock, then SIGKILL after the grace.
    await stopAllChildren(10_000);
    await this.current?.catch(() => undefined);
  }

  /** Alerts of conditions that are not stored (a full disk, secrets in a file). */
  liveAlerts(): Alert[] {
    return this.deps.liveAlerts?.() ?? [];
  }

  status(): BackupStatus {
    const { db, clock, settings } = this.deps;
    const now = unixSeconds(clock);
    const last = db.prepare<[], NonNullable<BackupStatus['last_run']>>(
      'SELECT id, generation, status, started_at, finished_at, error FROM backup_runs ORDER BY id DESC LIMIT 1',
    ).get();
    const lastOk = db.prepare<[], { t: number | null }>("SELECT MAX(finished_at) AS t FROM backup_runs WHERE status IN ('ok','partial')").get()?.t ?? null;
    const next = this.scheduler.nextRunAt();
    return {
      running: this.current !== null,
      progress: this.progress,
      paused: settings().backup_paused,
      interval_hours: settings().backup_interval_hours,
      next_run_at: next === null ? null : Math.floor(next / 1000),
      last_run: last ?? null,
      last_ok_at: lastOk,
      repositories: listRepositories(db).map((r) => ({
        name: r.name,
        type: r.type,
        location: r.location,
        enabled: r.enabled,
        last_ok_at: r.last_ok_at,
        last_ok_age_s: r.last_ok_at === null ? null : now - r.last_ok_at,
        last_error: r.last_error,
        failing: r.last_error_at !== null && (r.last_ok_at === null || r.last_error_at > r.last_ok_at),
      })),
      alerts: [...this.liveAlerts(), ...openAlerts(db)],
    };
  }
}

function phaseKey(p: BackupPhase): string {
  return p.phase === 'generation' ? `generation:${p.step}` : `upload:${p.repository}`;
}

function progressEvent(p: BackupPhase): Record<string, unknown> {
  if (p.phase === 'generation') return { phase: p.phase, step: p.step, percent: 0, files_done: 0, total_files: 0, bytes_done: 0, total_bytes: 0 };
  const { phase, repository, percent, files_done, total_files, bytes_done, total_bytes } = p;
  return { phase, repository, percent, files_done, total_files, bytes_done, total_bytes };
}

/** The open alerts as one comparable string: raised or resolved alerts change it. */
function alertKeys(db: Db): string {
  return openAlerts(db).map((a) => a.key).join('\n');
}
