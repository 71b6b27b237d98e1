// Sleep and wake, and the backup the shell itself interrupts.
//
// On suspend a running backup is INTERRUPTED cleanly (SIGINT to restic through the run's abort
// signal), not left to finish:
// - a restic frozen across a sleep keeps its lock in the repository for the whole sleep; other
//   clients may judge it stale after 30 minutes, and a machine whose battery dies asleep leaves it
//   there for good (restic#3732, a stale lock on cloud storage after a shutdown mid-backup);
// - restic 0.15 cancels an operation whose lock could not be refreshed in time, which is what a
//   standby does ("Fatal: failed to refresh lock in time", restic#4274; 0.16 retries the refresh,
//   restic#4374), so "let it finish" often fails anyway, only later and less cleanly;
// - an offsite upload holds connections that will not survive the sleep.
// SIGINT while the network is still up lets restic remove its lock and exit (code 130). Nothing is
// lost: restic's content-addressed packs that were uploaded are reused by the next run.
//
// The interrupted run is recorded by the core as failed (so `backup.failed` is raised); the shell
// remembers its id, holds that notification, and on resume (or at the next launch, after a Quit)
// starts the backup again at once: the scheduler alone would wait a whole interval, because the
// interrupted attempt counts as the last run. When a later run has finished, the hold ends: a real
// failure then notifies as usual, a success has resolved the alert.
//
// On resume without an interrupted backup, the schedules catch up: one run if a slot was missed
// while asleep (BackupScheduler.decideRun: never once per missed slot), and the drill check.
import type { Logger } from '../../src/log/logger.js';
import { BACKUP_FAILED } from './alert-keys.js';

export interface WakeableBackups {
  /** A backup (or its maintenance) runs or waits (BackupJobs.busy). */
  readonly busy: boolean;
  status(): { paused: boolean; last_run: { id: number } | null };
  /** Interrupts the running backup; false when none runs (BackupService.cancel). */
  cancel(): boolean;
  /** The schedule's catch-up check (BackupService.wake). */
  wake(): void;
  run(trigger: string): Promise<unknown>;
}

export interface WakeableDrills {
  wake(): Promise<void>;
}

/** Where the interrupted run's id is kept (desktop-state.ts): it must survive a Quit. */
export interface InterruptionRecord {
  readonly interrupted: number | null;
  update(patch: { interrupted: number | null }): void;
}

export type ResumeAction = 'retry' | 'catch-up';

/** Pure: what to do on resume / at launch. A paused schedule is the user's choice: no retry. */
export function resumeAction(interrupted: number | null, paused: boolean): ResumeAction {
  return interrupted !== null && !paused ? 'retry' : 'catch-up';
}

/** Pure: whether a finished run ends the hold (a run after the interrupted one answered). */
export function endsInterruption(interrupted: number | null, finishedRunId: number | null): boolean {
  return interrupted !== null && finishedRunId !== null && finishedRunId > interrupted;
}

export class SleepWake {
  constructor(private readonly deps: { backups: WakeableBackups; drills: WakeableDrills; record: InterruptionRecord; logger: Logger }) {}

  /** Interrupts a running backup and remembers it; returns its run id, or null if none ran. */
  interruptBackup(why: 'suspend' | 'quit'): number | null {
    const { backups, record, logger } = this.deps;
    const status = backups.status();
    if (!backups.busy || status.last_run === null) return null;
    const id = status.last_run.id;
    if (!backups.cancel()) return null;
    record.update({ interrupted: id });
    logger.info(`backup interrupted (${why}); it runs again on ${why === 'suspend' ? 'resume' : 'the next launch'}`, { run_id: id });
    return id;
  }

  suspend(): number | null {
    return this.interruptBackup('suspend');
  }

  /** On resume from sleep. */
  resume(): ResumeAction {
    return this.afterPause('resume');
  }

  /** At launch, once the core runs: retries a backup the last Quit interrupted. */
  launched(): ResumeAction {
    return this.afterPause('launch');
  }

  private afterPause(trigger: 'resume' | 'launch'): ResumeAction {
    const { backups, drills, record, logger } = this.deps;
    const status = backups.status();
    const action = resumeAction(record.interrupted, status.paused);
    const why = (err: unknown): string => (err instanceof Error ? err.message : String(err));
    // Nothing here is awaited: a backup or a drill takes minutes, and the power event must return.
    if (action === 'retry' && !backups.busy) {
      // A run the schedule's own catch-up started first answers just as well.
      backups
        .run(trigger === 'resume' ? 'resume' : 'relaunch')
        .catch((err: unknown) => logger.info('retry of the interrupted backup failed to start', { error: why(err) }));
    } else if (action === 'catch-up' && trigger === 'resume') {
      backups.wake();
    }
    if (trigger === 'resume') void drills.wake().catch((err: unknown) => logger.warn('drill check on resume failed', { error: why(err) }));
    return action;
  }

  /** Call on every `backup.finished` event. */
  backupFinished(runId: number | null): void {
    const { record } = this.deps;
    if (endsInterruption(record.interrupted, runId)) record.update({ interrupted: null });
  }

  /** Alert keys whose notification waits for the retry (notify-dedupe.ts `held`). */
  held(): Set<string> {
    return new Set(this.deps.record.interrupted === null ? [] : [BACKUP_FAILED]);
  }
}
