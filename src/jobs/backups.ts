// Backups as jobs of the owner (jobs.ts): the schedule, manual runs (attach to the running one, or
// queue one more after it), maintenance when due as its own job right after, and the status the GUI
// and the tray read. The work itself is backup/run-backup.ts and backup/maintenance.ts; nothing here
// holds a run's state: the job does.
import { DeletionJournal } from '../store/deletion-journal.js';
import { compactJournal } from './journal-retention.js';
import { unixSeconds } from '../clock.js';
import type { Db } from '../store/open.js';
import { openAlerts, repositoryErrorSaid, withAcks, type Alert, type ShownAlert } from '../store/alerts.js';
import { backupDepsFor } from '../backup/backup-deps.js';
import { lastBackupRun, lastBackupStartedAt, lastGoodBackupAt } from '../repository/backup-runs.js';
import { maintenanceDue, runMaintenance } from '../backup/maintenance.js';
import { listRepositories, LOCAL } from '../repository/repositories.js';
import { folderAbsence } from '../repository/folder-target.js';
import { toResticRepo } from '../repository/restic-target.js';
import { BackupBusyError, runBackup, type BackupOutcome, type BackupPhase } from '../backup/run-backup.js';
import { BackupScheduler, type HeldBy } from '../backup/schedule.js';
import { scheduledIntervalHours, type Settings } from '../contract/settings.js';
import { systemConditions, type OsConditions } from '../schedule/os-conditions.js';
import { copyToOffsite } from '../backup/offsite-catch-up.js';
import type { BackupStatus, OffsiteCatchUp } from '../contract/backups.js';
import type { JobDeps } from './job-deps.js';
import { backupHandle, backupRecord } from './backup-record.js';
import { JobCancelledError, JobRefusedError, JobsStoppedError, type Job, type JobControl } from './jobs.js';
import type { RunEnd } from './runs.js';

export interface BackupJobsDeps extends JobDeps {
  /** Alerts of conditions that are not stored (a full disk cannot record that it is full). */
  liveAlerts?: () => Alert[];
  /** What the OS says about battery and metered connections (default: this machine's own answers). */
  conditions?: OsConditions;
}

type BackupJob = Job<BackupOutcome, BackupPhase>;

export class BackupJobs {
  private readonly scheduler: BackupScheduler;

  constructor(private readonly deps: BackupJobsDeps) {
    const conditions = deps.conditions ?? systemConditions();
    this.scheduler = new BackupScheduler({
      clock: deps.clock,
      intervalMs: () => deps.settings().backup_interval_hours * 3_600_000,
      timeOfDay: () => deps.settings().backup_time_of_day,
      held: () => heldBy(deps.settings(), conditions),
      paused: () => deps.settings().backup_paused,
      lastRunAt: () => {
        const t = lastBackupStartedAt(deps.db);
        return t ? t * 1000 : null;
      },
      run: (trigger, signal) => this.run(trigger, signal),
      logger: deps.logger,
    });
    deps.jobs.own(this.scheduler);
  }

  /** On wake from sleep: one catch-up run if a slot was missed. */
  wake(): void {
    void this.scheduler.wake();
  }

  /** The backup job running (or waiting for maintenance to end), if any. */
  private current(): BackupJob | null {
    return this.deps.jobs.current<BackupOutcome, BackupPhase>('backup');
  }

  /**
   * A backup now, and after it the maintenance that is due. Rejects with BackupBusyError if one is
   * running here (attach() follows that one instead) or holds the backup lock in another process.
   * A backup asked for while maintenance or a restore runs waits for it, then starts by itself.
   */
  run(trigger: string, signal?: AbortSignal): Promise<BackupOutcome> {
    try {
      return this.start(trigger, signal).done;
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
  }

  /**
   * As run(), but answers at once with the run's id (recorded before this returns) and its end.
   * While a backup runs, this refuses with BackupBusyError (attach() follows that one), unless
   * `queue`: then one more waits for it (the job table), or the one already waiting is answered.
   */
  start(trigger: string, signal?: AbortSignal, queue = false): { runId: number; done: Promise<BackupOutcome>; queued: boolean } {
    const waiting = queue ? this.waitingBackup() : null;
    if (waiting) return { runId: waiting.runId, done: waiting.done, queued: true };
    if (!queue && this.current() !== null) throw new BackupBusyError();
    const queued = this.current() !== null;
    const alertsBefore = alertKeys(this.deps.db);
    let job: BackupJob;
    try {
      job = this.deps.jobs.start<BackupOutcome, BackupPhase>('backup', (control) => this.backup(control), {
        ...(signal ? { signal } : {}),
        record: backupRecord(trigger),
      });
    } catch (error) {
      throw error instanceof JobRefusedError && error.blocking === 'backup' ? new BackupBusyError() : error;
    }
    const runId = job.runId;
    const run = job.done.then(async (outcome) => {
      // A backup that was cancelled (suspend, Quit) is not followed by maintenance.
      if (!job.controller.signal.aborted) await this.maintainAfter(outcome, signal);
      return outcome;
    });
    // After the jobs ended: a client that reads the status on `backup.finished` sees it idle.
    void run.then(
      (outcome) => this.publishFinished(runId, outcome, alertsBefore),
      (err: unknown) => this.publishFinished(runId, null, alertsBefore, err instanceof Error ? err.message : String(err)),
    );
    run.catch(() => undefined);
    return { runId, done: run, queued };
  }

  /** The run in progress, to follow to its end (the GUI's button and `sanad backup now` while one
   *  runs); null if none runs. */
  attach(): { runId: number; done: Promise<BackupOutcome> } | null {
    const job = this.current();
    // A "Copy to offsite now" is a backup job with no run of its own: nothing to follow by id.
    return job?.run ? { runId: job.runId, done: job.done } : null;
  }

  /** A backup waiting behind another backup (asked for with `queue`), if any. */
  private waitingBackup(): { runId: number; done: Promise<BackupOutcome> } | null {
    if (this.deps.jobs.count('backup') < 2) return null;
    const job = this.deps.jobs.list().findLast((j) => j.kind === 'backup' && j.state === 'waiting');
    const found = job ? this.deps.jobs.byId<BackupOutcome, BackupPhase>(job.id) : null;
    return found && { runId: found.runId, done: found.done };
  }

  /**
   * "Copy to offsite now": the newest local generation to every offsite repository without it, as a
   * backup job (so never beside a backup, its maintenance or a rotation; a drill or a restore that
   * reads a repository is made to wait by the same table). Rejects with BackupBusyError while a
   * backup runs: that backup sends its generation to every target anyway.
   */
  async copyOffsite(): Promise<OffsiteCatchUp> {
    const { db, dataDir, clock, logger, store } = this.deps;
    const alertsBefore = alertKeys(db);
    // Never queued behind a backup (the job table would let it wait): that backup sends its
    // generation to every target itself.
    if (this.current() !== null) throw new BackupBusyError();
    let job: Job<OffsiteCatchUp, BackupPhase>;
    try {
      job = this.deps.jobs.start<OffsiteCatchUp, BackupPhase>(
        'backup',
        async (control) => {
          const deps = await backupDepsFor({ db, dataDir, clock, logger, store });
          return copyToOffsite(deps, { signal: control.signal, onTarget: (repository) => control.progress({ phase: 'copy', repository }) });
        },
        { record: { kind: 'offsite-copy', trigger: 'manual', end: offsiteCopyEnd, keep: KEEP_OTHER_RUNS } },
      );
    } catch (error) {
      throw error instanceof JobRefusedError && error.blocking === 'backup' ? new BackupBusyError() : error;
    }
    try {
      return await job.done;
    } finally {
      if (alertKeys(db) !== alertsBefore) this.publishAlerts();
    }
  }

  private async backup(control: JobControl<BackupPhase>): Promise<BackupOutcome> {
    const { db, dataDir, clock, logger, store } = this.deps;
    const run = backupHandle(db, control.run);
    const deps = await backupDepsFor({ db, dataDir, clock, logger, store });
    return runBackup(deps, { run, signal: control.signal, onProgress: (p) => control.progress(p) });
  }

  /** Maintenance of every repository it is due for, as one job after the backup (never beside it). */
  private async maintainAfter(outcome: BackupOutcome, signal?: AbortSignal): Promise<void> {
    const { db, dataDir, clock, logger, store, jobs } = this.deps;
    // A repository this backup reached is no longer broken: a maintenance that failed there is due.
    const reached = new Set(outcome.repositories.filter((r) => r.ok).map((r) => r.name));
    // A disk that is not connected is not maintained either: restic would run on the empty mount point.
    const due = listRepositories(db).filter((r) => r.enabled && folderAbsence(r) === null && maintenanceDue(db, clock, r.name, undefined, reached.has(r.name)));
    if (due.length === 0 || signal?.aborted) return;
    let job;
    try {
      job = jobs.start(
        'maintenance',
        async (control) => {
          const deps = await backupDepsFor({ db, dataDir, clock, logger, store });
          for (const repo of due) {
            if (control.signal.aborted) return;
            await runMaintenance(deps.restic, toResticRepo(repo, deps.vault, deps.passphrase), { db, clock, logger, signal: control.signal });
          }
          // forget --prune may have removed the oldest generations: older deletions can go now.
          await compactJournal({
            restic: deps.restic,
            repositories: listRepositories(db),
            resticRepo: (r) => toResticRepo(r, deps.vault, deps.passphrase),
            journal: DeletionJournal.of(dataDir),
            live: db,
            logger,
            signal: control.signal,
          });
        },
        {
          ...(signal ? { signal } : {}),
          // Its own run: what it did is in the record, and a crash mid-way settles it as interrupted.
          record: {
            kind: 'maintenance',
            trigger: 'after-backup',
            end: (_value, aborted) => ({ status: aborted ? 'interrupted' : 'ok', error: null }),
            keep: KEEP_OTHER_RUNS,
          },
        },
      );
    } catch (error) {
      // Sanad is stopping: the maintenance is due again after the next backup.
      if (error instanceof JobsStoppedError) return;
      throw error;
    }
    await job.done.catch((error: unknown) => {
      // Stopped before it could start: likewise due again after the next backup.
      if (!(error instanceof JobCancelledError)) throw error;
    });
  }

  private publishFinished(runId: number, outcome: BackupOutcome | null, alertsBefore: string, error: string | null = null): void {
    const { events, db } = this.deps;
    if (!events) return;
    events.publish('backup.finished', {
      run_id: runId,
      generation: outcome?.generation ?? null,
      status: outcome?.status ?? 'failed',
      repositories: (outcome?.repositories ?? []).map((r) => ({ name: r.name, ok: r.ok, error: r.error })),
      error: outcome?.error ?? error,
    });
    if (alertKeys(db) !== alertsBefore) this.publishAlerts();
  }

  /** Interrupts the running backup (the desktop shell on suspend and on Quit): its restic gets
   *  SIGINT and removes its lock, and no later step of that run starts. False if none was running. */
  cancel(): boolean {
    const job = this.current();
    if (job === null) return false;
    job.cancel();
    return true;
  }

  /** Alerts of conditions that are not stored (a full disk, secrets in a file). */
  liveAlerts(): Alert[] {
    return this.deps.liveAlerts?.() ?? [];
  }

  /** The open alerts, live and stored, with what the person said about each. */
  openAlerts(): ShownAlert[] {
    return withAcks(this.deps.db, [...this.liveAlerts(), ...openAlerts(this.deps.db)], unixSeconds(this.deps.clock));
  }

  /** Tells the GUI and the tray the open alerts changed (raised, resolved, accepted, snoozed). */
  publishAlerts(): void {
    this.deps.events?.publish('alerts.changed', { alerts: this.openAlerts() });
  }

  /** Whether a backup (or the maintenance after one) runs or waits to: targets must not change now. */
  get busy(): boolean {
    return this.current() !== null || this.deps.jobs.current('maintenance') !== null;
  }

  status(): BackupStatus {
    const { db, clock, settings } = this.deps;
    const now = unixSeconds(clock);
    const next = this.scheduler.nextRunAt();
    return {
      paused: settings().backup_paused,
      interval_hours: scheduledIntervalHours(settings()),
      time_of_day: settings().backup_time_of_day,
      held_by: this.scheduler.heldBy,
      next_run_at: next === null ? null : Math.floor(next / 1000),
      last_run: lastBackupRun(db),
      last_ok_at: lastGoodBackupAt(db),
      repositories: listRepositories(db).map((r) => ({
        name: r.name,
        type: r.type,
        location: r.location,
        enabled: r.enabled,
        last_ok_at: r.last_ok_at,
        last_ok_age_s: r.last_ok_at === null ? null : now - r.last_ok_at,
        last_error: r.last_error,
        last_error_said: repositoryErrorSaid(db, r.name, r.name === LOCAL),
        failing: r.last_error_at !== null && (r.last_ok_at === null || r.last_error_at > r.last_ok_at),
      })),
      alerts: this.openAlerts(),
    };
  }
}

/** The reason to hold a due scheduled backup: only the ones the person asked for, and only where the OS says so. */
function heldBy(settings: Settings, conditions: OsConditions): Promise<HeldBy | null> | null {
  if (!settings.backup_skip_on_battery && !settings.backup_skip_on_metered) return null;
  return (async () => {
    if (settings.backup_skip_on_battery && (await conditions.onBattery()) === true) return 'battery';
    if (settings.backup_skip_on_metered && (await conditions.metered()) === true) return 'metered';
    return null;
  })();
}

/** How many ended maintenance and offsite-copy runs are kept (as many as a month of daily backups). */
const KEEP_OTHER_RUNS = 50;

/** "Copy to offsite now" ends ok when every target has the generation, partial when some failed. */
function offsiteCopyEnd(value: OffsiteCatchUp, aborted: boolean): RunEnd {
  const failed = value.targets.filter((t) => t.status === 'failed');
  if (aborted) return { status: 'interrupted', error: null, generation: value.generation };
  if (failed.length === 0) return { status: 'ok', error: null, generation: value.generation };
  const status = failed.length === value.targets.length ? 'failed' : 'partial';
  return { status, error: failed.map((t) => `${t.name}: ${t.said.detail}`).join('; '), generation: value.generation };
}

/** The open alerts as one comparable string: raised or resolved alerts change it. */
function alertKeys(db: Db): string {
  return openAlerts(db)
    .map((a) => a.key)
    .join('\n');
}
