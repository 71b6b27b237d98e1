// A backup or a drill run in this process by a command with no service beside it (`sanad backup
// now`, `sanad drill`), and by the benches and tests that run one directly: through a job owner of
// its own, so the run is recorded in `runs` exactly as the service records its runs (runs.ts), and
// a run another process cut short is settled first (settleRuns; leftovers.ts at a service's start).
import type { BackupDeps, BackupOutcome, RunBackupOptions } from '../backup/run-backup.js';
import { runBackup } from '../backup/run-backup.js';
import type { DrillDeps } from '../drill/drill-deps.js';
import { runDrill, type DrillResult, type RunDrillOptions } from '../drill/run-drill.js';
import { backupHandle, backupRecord } from './backup-record.js';
import { drillRecord } from './drill-record.js';
import { Jobs } from './jobs.js';
import { settleRunsHere } from './leftovers.js';

export async function backupHere(deps: BackupDeps, options: Omit<RunBackupOptions, 'run'> & { trigger: string }): Promise<BackupOutcome> {
  const { db, dataDir, clock, logger } = deps;
  await settleRunsHere({ db, dataDir, clock, logger });
  const jobs = new Jobs({ clock, logger, store: { db, dataDir } });
  const { trigger, ...rest } = options;
  const { signal, ...others } = rest;
  const job = jobs.start<BackupOutcome>('backup', (control) => runBackup(deps, { ...others, signal: control.signal, run: backupHandle(db, control.run) }), {
    record: backupRecord(trigger),
    ...(signal ? { signal } : {}),
  });
  return job.done;
}

export async function drillHere(deps: DrillDeps, options: Omit<RunDrillOptions, 'run'>): Promise<DrillResult> {
  const { db, dataDir, clock, logger } = deps;
  await settleRunsHere({ db, dataDir, clock, logger });
  const jobs = new Jobs({ clock, logger, store: { db, dataDir } });
  const { signal, ...rest } = options;
  const job = jobs.start<DrillResult>(
    'drill',
    (control) => {
      if (control.run === null) throw new Error('A drill must be started with its record (drillRecord).');
      return runDrill(deps, { ...rest, signal: control.signal, run: control.run });
    },
    { record: drillRecord(options.trigger), ...(signal ? { signal } : {}) },
  );
  return job.done;
}
