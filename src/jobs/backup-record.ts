// How a backup is kept in `runs` (runs.ts), for whoever runs it (the service's job owner, or
// `sanad backup now` with no service): the run ends with the backup's own status, a backup that
// another process kept out (its lock was held) leaves no record, and one stopped half-way (Quit,
// suspend) is `interrupted` rather than `failed`.
import type { BackupRunHandle } from '../repository/backup-runs.js';
import { BackupBusyError, type BackupOutcome } from '../backup/run-backup.js';
import type { Db } from '../store/open.js';
import type { RunRecord } from './jobs.js';
import { setRunGeneration, type OpenRun } from './runs.js';

export function backupRecord(trigger: string): RunRecord<BackupOutcome> {
  return {
    kind: 'backup',
    trigger,
    end: (outcome, aborted) => ({
      status: aborted && outcome.status === 'failed' ? 'interrupted' : outcome.status,
      error: outcome.error,
      generation: outcome.generation,
    }),
    refused: (error) => error instanceof BackupBusyError,
  };
}

/** What runBackup gets of its run: the id to key its details by, and where the generation goes. */
export function backupHandle(db: Db, run: OpenRun | null): BackupRunHandle {
  if (run === null) throw new Error('A backup must be started with its record (backupRecord).');
  return { id: run.id, generation: (epoch) => setRunGeneration(db, run, epoch) };
}
