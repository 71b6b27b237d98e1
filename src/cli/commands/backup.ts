// `sanad backup now [--new]`: one generation, sent to every enabled repository (`sanad backup
// copy-offsite` is backup-copy.ts). Exit 0 all ok, 3
// local ok but an offsite failed, 1 failed. Beside a running `sanad serve` the backup is the
// service's (its job owner keeps it apart from its own maintenance and restores): asked for over
// the admin API and followed to its end. While a backup already runs, this attaches to it: shows its
// progress and reports its result; `--new` runs one more right after it instead.
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { backupDepsFor } from '../../backup/backup-deps.js';
import { backupRun, backupRunDetails } from '../../repository/backup-runs.js';
import { backupLockHeld } from '../../repository/backup-lock.js';
import { BackupBusyError, type BackupOutcome, type BackupPhase as BackupPhaseOf } from '../../backup/run-backup.js';
import { backupHere } from '../../jobs/run-here.js';
import { openRunOf } from '../../jobs/runs.js';
import { RunDetails } from '../../contract/run-details.js';
import { systemClock } from '../../clock.js';
import { BackupPhase, BackupStarted, type BackupCopySummary } from '../../contract/backups.js';
import { Runs } from '../../contract/runs.js';
import { createLogger, levelFromEnv } from '../../log/logger.js';
import { secretStoreFor } from '../secrets-access.js';
import { CliError, usageError } from '../cli-error.js';
import type { Io } from '../io.js';
import { errorMessage, serviceHoldsDataDir, withRunningService, type AdminCall, type AdminStream } from '../running-service.js';
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
  if (sub !== 'now')
    throw usageError(
      sub
        ? `Unknown backup command "${sub}"; use \`sanad backup now\` or \`sanad backup copy-offsite\`.`
        : 'Say what to do: `sanad backup now` or `sanad backup copy-offsite`.',
    );
  const { values } = parseArgs({ args: rest, options: { new: { type: 'boolean' } }, strict: true });
  const queue = values.new === true;
  const report = serviceHoldsDataDir(dataDir)
    ? await withRunningService(dataDir, 'sanad backup now', (call, stream) => inService(call, stream, io, queue))
    : await here(dataDir, io, secretsFile, queue);
  io.result({ generation: report.generation, repositories: report.repositories, offsite_copy: report.offsite_copy }, () =>
    [
      `Generation ${report.generation ?? '(none)'}: ${report.status}`,
      ...report.repositories.map((r) => `  ${r.name}: ${r.ok ? `ok, snapshot ${r.snapshot_id ?? ''}` : `FAILED: ${r.error ?? ''}`}`),
      ...(report.offsite_copy
        ? [
            `  copy to ${report.offsite_copy.destination}: ${report.offsite_copy.ok ? `ok, ${report.offsite_copy.name ?? ''}` : `FAILED: ${report.offsite_copy.error ?? ''}`}`,
          ]
        : []),
      ...(report.error && report.repositories.length === 0 ? [`  ${report.error}`] : []),
    ].join('\n'),
  );
  // 130: ended by Ctrl-C, as a shell counts an interrupted command.
  if (report.status === 'cancelled') return 130;
  return report.status === 'ok' ? 0 : report.status === 'partial' ? 3 : 1;
}

function progressPrinter(io: Io): (p: BackupPhaseOf) => void {
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
        return backupHere(deps, { trigger: 'cli', onProgress: progressPrinter(io) });
      });
      return outcome;
    } catch (err) {
      if (!(err instanceof BackupBusyError)) throw new CliError(err instanceof Error ? err.message : String(err));
    }
    // Another `sanad backup now` holds the backup lock: its run is the open backup run in the
    // store; follow it to its end (or, with --new, run one more after it).
    io.note(
      queue
        ? 'A backup is already running on this data dir; this one runs right after it.'
        : 'A backup is already running on this data dir (another sanad command); following it to its end.',
    );
    const theirs = await withStore(dataDir, (db) => openRunOf(db, 'backup'));
    while (backupLockHeld(dataDir)) await sleep(POLL_MS);
    if (queue || theirs === null) continue;
    return withStore(dataDir, (db) => {
      const run = backupRun(db, theirs.id);
      if (!run) throw new CliError(`Backup run ${theirs.id} is no longer recorded; see the GUI's Backups screen.`);
      return reportOf(run, backupRunDetails(db, theirs.id));
    });
  }
}

/**
 * A service runs on this data dir: the backup is its job. Asked for (the service starts one,
 * attaches to the one running, or queues one after it with --new), and followed by the run id it
 * answered, on the service's event stream: its progress, then its end.
 */
async function inService(call: AdminCall, stream: AdminStream, io: Io, queue: boolean): Promise<Report> {
  const asked = await call('POST', '/admin/backups', queue ? { queue: true } : {});
  if (asked.status !== 202) throw new CliError(errorMessage(asked.body, `The running Sanad answered ${asked.status} to "back up now".`));
  const answer = BackupStarted.parse(asked.body);
  if (answer.attached) io.note('A backup is already running on this data dir; following it to its end (use --new to run one more after it).');
  if (answer.queued) io.note('A backup is already running on this data dir; one more runs right after it.');
  const id = answer.run_id;
  const read = async (): Promise<RunDetails> => {
    const got = await call('GET', `/admin/runs/${id}`);
    if (got.status !== 200) throw new CliError(errorMessage(got.body, `The running Sanad answered ${got.status} about backup run ${id}.`));
    return RunDetails.parse(got.body);
  };
  const show = progressPrinter(io);
  const ended: { run: RunDetails | null } = { run: null };
  // The command ends when the backup and the maintenance after it have (`backup.finished`, sent
  // after both), so the next command does not meet restic's exclusive lock. Subscribed first
  // (`ready`), then read: an end before the subscription is seen in the run's record and in no
  // open backup or maintenance run; the heartbeat reads them again, in case `backup.finished` went
  // out before it. Progress is the run's own (`run.updated`). Ctrl-C cancels the run in the
  // service (restic drops its lock there), and the command reports the cancelled run as it ends.
  let cancelling = false;
  const cancel = (): void => {
    if (cancelling) return;
    cancelling = true;
    io.note('Cancelling the backup…');
    void call('POST', `/admin/runs/${id}/cancel`).then((res) => {
      if (res.status !== 202) io.note(errorMessage(res.body, `The running Sanad answered ${res.status} to the cancel.`));
    });
  };
  process.on('SIGINT', cancel);
  try {
    await stream(`/admin/events?run=${id}`, async (event) => {
      if (event.type === 'run.updated') {
        const p = BackupPhase.safeParse(event.data !== null && typeof event.data === 'object' && 'data' in event.data ? progressOf(event.data.data) : null);
        if (p.success) show(p.data);
        return false;
      }
      if (event.type === 'backup.finished') {
        ended.run = await read();
        return true;
      }
      if (event.type !== 'ready' && event.type !== 'run.finished' && event.type !== 'heartbeat') return false;
      if (ended.run === null) {
        const run = await read();
        if (run.status === 'queued' || run.status === 'running') return false;
        ended.run = run;
      }
      if (event.type === 'run.finished') return false;
      const open = await call('GET', '/admin/runs?open=true');
      return open.status === 200 && !Runs.parse(open.body).data.some((r) => r.kind === 'backup' || r.kind === 'maintenance');
    });
  } finally {
    process.off('SIGINT', cancel);
  }
  const run = ended.run;
  if (run === null) throw new CliError(`Backup run ${id} did not end while followed; see the GUI's Backups screen.`);
  return reportOf(run, run.backup ?? { copies: [], offsite_copy: null });
}

function reportOf(
  run: { generation: number | null; status: string; error: string | null },
  details: {
    copies: Array<{ repository: string; ok: number; snapshot_id: string | null; error: string | null; summary: BackupCopySummary | null }>;
    offsite_copy: BackupOutcome['offsite_copy'];
  },
): Report {
  return {
    generation: run.generation,
    status: run.status,
    repositories: details.copies.map((c) => ({
      name: c.repository,
      ok: c.ok === 1,
      snapshot_id: c.snapshot_id,
      error: c.error,
      ...(c.summary ? { summary: c.summary } : {}),
    })),
    offsite_copy: details.offsite_copy,
    error: run.error,
  };
}

/** A `run.updated` event's progress (its data is the run's row). */
function progressOf(data: unknown): unknown {
  return data !== null && typeof data === 'object' && 'progress' in data ? data.progress : null;
}
