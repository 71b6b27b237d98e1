// `sanad backup now [--new]`: one generation, sent to every enabled repository (`sanad backup
// copy-offsite` is backup-copy.ts). Exit 0 all ok, 3
// local ok but an offsite failed, 1 failed. Beside a running `sanad serve` the backup is the
// service's (its job owner keeps it apart from its own maintenance and restores): asked for over
// the admin API and followed to its end. While a backup already runs, this attaches to it: shows its
// progress and reports its result; `--new` runs one more right after it instead.
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { backupDepsFor } from '../../backup/backup-deps.js';
import { lastBackupRun, recentBackupRuns, type BackupRunRow } from '../../backup/backup-runs.js';
import { backupLockHeld } from '../../drill/checks/repo-lock.js';
import { BackupBusyError, runBackup, type BackupOutcome, type BackupPhase } from '../../backup/run-backup.js';
import { systemClock } from '../../clock.js';
import { BackupRuns, BackupStarted, BackupStatus, type BackupCopySummary } from '../../contract/backups.js';
import { createLogger, levelFromEnv } from '../../log/logger.js';
import { secretStoreFor } from '../secrets-access.js';
import { CliError, usageError } from '../cli-error.js';
import type { Io } from '../io.js';
import { errorMessage, serviceHoldsDataDir, withRunningService, type AdminCall } from '../running-service.js';
import { withStore } from '../store-access.js';
import { copyOffsiteCommand } from './backup-copy.js';

const POLL_MS = 500;

interface Report {
  generation: number | null;
  status: string;
  /** restic's summary of each repository too, when this command ran the backup itself. */
  repositories: Array<{ name: string; ok: boolean; snapshot_id: string | null; error: string | null; summary?: unknown }>;
  offsite_copy: BackupOutcome['offsite_copy'];
  error: string | null;
}

export async function backupCommand(args: string[], dataDir: string, io: Io, secretsFile: string | undefined): Promise<number> {
  const [sub, ...rest] = args;
  if (sub === 'copy-offsite') {
    parseArgs({ args: rest, options: {}, strict: true });
    return copyOffsiteCommand(dataDir, io, secretsFile);
  }
  if (sub !== 'now') throw usageError(sub ? `Unknown backup command "${sub}"; use \`sanad backup now\` or \`sanad backup copy-offsite\`.` : 'Say what to do: `sanad backup now` or `sanad backup copy-offsite`.');
  const { values } = parseArgs({ args: rest, options: { new: { type: 'boolean' } }, strict: true });
  const queue = values.new === true;
  const report = serviceHoldsDataDir(dataDir)
    ? await withRunningService(dataDir, 'sanad backup now', (call) => inService(call, io, queue))
    : await here(dataDir, io, secretsFile, queue);
  io.result({ generation: report.generation, repositories: report.repositories, offsite_copy: report.offsite_copy }, () =>
    [
      `Generation ${report.generation ?? '(none)'}: ${report.status}`,
      ...report.repositories.map((r) => `  ${r.name}: ${r.ok ? `ok, snapshot ${r.snapshot_id ?? ''}` : `FAILED: ${r.error ?? ''}`}`),
      ...(report.offsite_copy ? [`  copy to ${report.offsite_copy.destination}: ${report.offsite_copy.ok ? `ok, ${report.offsite_copy.name ?? ''}` : `FAILED: ${report.offsite_copy.error ?? ''}`}`] : []),
      ...(report.error && report.repositories.length === 0 ? [`  ${report.error}`] : []),
    ].join('\n'),
  );
  return report.status === 'ok' ? 0 : report.status === 'partial' ? 3 : 1;
}

function progressPrinter(io: Io): (p: BackupPhase) => void {
  let lastShown = -10;
  let lastRepo = '';
  return (p) => {
    if (io.json || p.phase !== 'upload') return;
    if (p.repository !== lastRepo) lastShown = -10;
    lastRepo = p.repository;
    if (p.percent - lastShown < 0.1) return;
    lastShown = p.percent;
    io.note(`${p.repository}: ${Math.round(p.percent * 100)}% (${p.files_done}/${p.total_files} files)`);
  };
}

/** No service on this data dir: the backup runs in this process (a file lock keeps runs apart). */
async function here(dataDir: string, io: Io, secretsFile: string | undefined, queue: boolean): Promise<Report> {
  const store = await secretStoreFor(dataDir, secretsFile);
  const logger = createLogger({ level: levelFromEnv(process.env.SANAD_LOG ?? 'warn') });
  for (;;) {
    try {
      const outcome = await withStore(dataDir, async (db) => {
        const deps = await backupDepsFor({ db, dataDir, store, clock: systemClock, logger });
        return runBackup(deps, { trigger: 'cli', onProgress: progressPrinter(io) });
      });
      return outcome;
    } catch (err) {
      if (!(err instanceof BackupBusyError)) throw new CliError(err instanceof Error ? err.message : String(err));
    }
    // Another `sanad backup now` holds the backup lock: follow its run in the store to its end.
    io.note(queue ? 'A backup is already running on this data dir; this one runs right after it.' : 'A backup is already running on this data dir (another sanad command); following it to its end.');
    const theirs = await withStore(dataDir, (db) => lastBackupRun(db));
    while (backupLockHeld(dataDir)) await sleep(POLL_MS);
    if (queue || theirs?.status !== 'running') continue;
    return withStore(dataDir, (db) => reportOf(recentBackupRuns(db, 5), theirs.id));
  }
}

/** A service runs on this data dir: the backup is its job; ask for it (or attach) and follow it. */
async function inService(call: AdminCall, io: Io, queue: boolean): Promise<Report> {
  const status = async (): Promise<BackupStatus> => {
    const answer = await call('GET', '/admin/backups/status');
    if (answer.status !== 200) throw new CliError(errorMessage(answer.body, `The running Sanad answered ${answer.status} to the backup status.`));
    return BackupStatus.parse(answer.body);
  };
  const before = await status();
  // Asked for in any case: the service attaches to a backup in progress, queues one after it
  // (--new), or starts one, which waits for maintenance or a restore to end (its job table).
  const asked = await call('POST', '/admin/backups', queue ? { queue: true } : {});
  if (asked.status !== 202) throw new CliError(errorMessage(asked.body, `The running Sanad answered ${asked.status} to "back up now".`));
  const answer = BackupStarted.parse(asked.body);
  if (answer.attached) io.note('A backup is already running on this data dir; following it to its end (use --new to run one more after it).');
  if (answer.queued) io.note('A backup is already running on this data dir; one more runs right after it.');
  // The run to report is the newest once the service is idle again, and newer than `baseline`:
  // the one attached to, or the one asked for (a queued one runs before the service goes idle).
  const last = before.last_run;
  const baseline = last === null ? 0 : answer.attached && last.status === 'running' ? last.id - 1 : last.id;
  const show = progressPrinter(io);
  let idle = 0;
  for (;;) {
    await sleep(POLL_MS);
    const now = await status();
    if (now.progress) show(now.progress);
    const newest = now.last_run;
    // Idle with no new run: it failed before it could start a run (its reason is in the service's log).
    if (!now.running && (newest === null || newest.id <= baseline) && ++idle >= 3) {
      throw new CliError('The running Sanad did not start the backup; see its log or the GUI\'s Backups screen for why, then try again.');
    }
    if (!now.running && newest !== null && newest.id > baseline && newest.status !== 'running') {
      const runs = await call('GET', '/admin/backups');
      if (runs.status !== 200) throw new CliError(errorMessage(runs.body, `The running Sanad answered ${runs.status} to the list of runs.`));
      return reportOf(BackupRuns.parse(runs.body), newest.id);
    }
  }
}

function reportOf(list: { runs?: Array<BackupRunRow & { offsite_copy?: BackupOutcome['offsite_copy'] | undefined }>; data?: Array<BackupRunRow & { offsite_copy?: BackupOutcome['offsite_copy'] | undefined }>; copies: Array<{ run_id: number; repository: string; ok: number; snapshot_id: string | null; error: string | null; summary: BackupCopySummary | null }> }, id: number): Report {
  const run = (list.runs ?? list.data ?? []).find((r) => r.id === id);
  if (!run) throw new CliError(`Backup run ${id} is no longer listed; see \`sanad serve\`'s log or the GUI's Backups screen.`);
  return {
    generation: run.generation,
    status: run.status,
    repositories: list.copies.filter((c) => c.run_id === id).map((c) => ({ name: c.repository, ok: c.ok === 1, snapshot_id: c.snapshot_id, error: c.error, ...(c.summary ? { summary: c.summary } : {}) })),
    offsite_copy: run.offsite_copy ?? null,
    error: run.error,
  };
}
