// `sanad drill [--deep] [--repo NAME]`: verifies the backups without writing to them and without
// restoring over anything. Exit 0 PASS, 1 FAIL, 2 UNVERIFIED (and 2 for a wrong command line, the
// CLI's convention). The checklist goes to stderr, `--json` to stdout; the run is stored like a
// scheduled one, so the GUI shows it. With a `sanad serve` on the data dir, the service runs it (as
// its job, beside its backups) and the command follows its run; with none, it runs here.
import { say } from '../../contract/said/index.js';
import { parseArgs } from 'node:util';
import { getRepository } from '../../repository/repositories.js';
import { systemClock } from '../../clock.js';
import { drillDepsFor } from '../../drill/drill-deps.js';
import { UnknownRepositoryError } from '../../drill/run-drill.js';
import { drillHere } from '../../jobs/run-here.js';
import { exitCodeOf, type DrillCheck, type DrillKind, type Verdict } from '../../drill/verdict.js';
import { createLogger, levelFromEnv } from '../../log/logger.js';
import { secretStoreFor } from '../secrets-access.js';
import { CliError, usageError } from '../cli-error.js';
import type { Io } from '../io.js';
import { withStore } from '../store-access.js';
import type { z } from 'zod/v3';
import { AdminEvent } from '../../contract/admin-events.js';
import type { StartDrillRequest } from '../../contract/admin-requests.js';
import { DrillStarted } from '../../contract/drills.js';
import { RepositoryList } from '../../contract/repositories.js';
import { RunDetails } from '../../contract/run-details.js';
import { errorMessage, serviceHoldsDataDir, withRunningService } from '../running-service.js';

interface Report {
  verdict: Verdict;
  checks: DrillCheck[];
  id: number | null;
  kind: DrillKind;
}

const LABEL: Record<DrillCheck['status'], string> = { pass: 'pass', fail: 'FAIL', unverified: 'unverified' };

export async function drillCommand(args: string[], dataDir: string, io: Io, secretsFile: string | undefined): Promise<number> {
  const { values, positionals } = parseArgs({ args, options: { deep: { type: 'boolean' }, repo: { type: 'string' } }, strict: true, allowPositionals: true });
  if (positionals.length > 0) throw usageError(`Unexpected argument "${positionals[0] ?? ''}".`);
  if (values.repo !== undefined && values.repo.trim() === '') throw usageError('--repo needs a repository name.');
  const kind: DrillKind = values.deep === true ? 'deep' : 'daily';
  // restic failures are the drill's findings, already in the checklist: no log lines unless asked.
  const logger = createLogger({ level: levelFromEnv(process.env.SANAD_LOG ?? 'error') });
  let report: Report;
  try {
    // A service on this data dir runs the drill as its job (one drill at a time, beside its
    // backups), and this command follows the run it answered; with none, it runs here.
    if (serviceHoldsDataDir(dataDir)) return show(await inService(dataDir, io, kind, values.repo), io);
    const store = await secretStoreFor(dataDir, secretsFile);
    report = await withStore(dataDir, async (db) => {
      // A name that is not there is a mistake on the command line, whatever else is wrong.
      if (values.repo !== undefined && getRepository(db, values.repo) === null) throw new UnknownRepositoryError(values.repo);
      const deps = await drillDepsFor({ db, dataDir, store, clock: systemClock, logger });
      const result = await drillHere(deps, {
        kind,
        trigger: 'cli',
        ...(values.repo !== undefined ? { repo: values.repo } : {}),
        onProgress: (p) => {
          if (!io.json) io.note(`  checking ${p.check} (${p.index}/${p.total})`);
        },
      });
      return { verdict: result.verdict, checks: result.checks, id: result.id, kind };
    });
  } catch (error) {
    if (error instanceof UnknownRepositoryError) throw new CliError(error.message, 2);
    // Anything that kept the drill from running (no keychain, no secrets, another drill running)
    // proves nothing about the backups either way: that is UNVERIFIED, not a crash.
    const said = say('said.text', { text: error instanceof Error ? error.message : String(error) });
    report = { verdict: 'UNVERIFIED', checks: [{ name: 'drill', status: 'unverified', ...said }], id: null, kind };
  }
  return show(report, io);
}

function show(report: Report, io: Io): number {
  if (io.json) io.out(JSON.stringify(report));
  else io.note([`Drill (${report.kind}): ${report.verdict}`, ...report.checks.map((c) => `  ${LABEL[c.status].padEnd(10)} ${c.name}: ${c.detail}`)].join('\n'));
  return exitCodeOf(report.verdict);
}

/** The drill asked of the running service, followed by its run id to its end. */
async function inService(dataDir: string, io: Io, kind: DrillKind, repo: string | undefined): Promise<Report> {
  return withRunningService(dataDir, 'sanad drill', async (call, stream) => {
    // A name that is not there is a mistake on the command line, said before anything runs.
    if (repo !== undefined) {
      const listed = RepositoryList.safeParse((await call('GET', '/admin/repositories')).body);
      if (listed.success && !listed.data.data.some((r) => r.name === repo)) throw new UnknownRepositoryError(repo);
    }
    const asked = await call('POST', '/admin/drills', { deep: kind === 'deep', ...(repo !== undefined ? { repo } : {}) } satisfies z.input<
      typeof StartDrillRequest
    >);
    if (asked.status === 404) throw new UnknownRepositoryError(repo ?? '');
    const started = DrillStarted.safeParse(asked.body);
    if (asked.status !== 202 || !started.success) throw new CliError(errorMessage(asked.body, `The running Sanad answered ${asked.status} to "drill".`));
    const id = started.data.id;
    const ended: { run: RunDetails | null } = { run: null };
    // Subscribed first (`ready`), then read: a drill that ended before is seen in its record.
    await stream(`/admin/events?run=${id}`, async (frame) => {
      const event = AdminEvent.safeParse(frame.data);
      if (event.success && event.data.type === 'drill.progress') {
        if (!io.json) io.note(`  checking ${event.data.data.check} (${event.data.data.index}/${event.data.data.total})`);
        return false;
      }
      if (frame.type !== 'ready' && frame.type !== 'run.finished' && frame.type !== 'heartbeat') return false;
      const got = await call('GET', `/admin/runs/${id}`);
      const run = RunDetails.safeParse(got.body);
      if (!run.success) throw new CliError(errorMessage(got.body, `The running Sanad answered ${got.status} about drill run ${id}.`));
      if (run.data.status === 'queued' || run.data.status === 'running') return false;
      ended.run = run.data;
      return true;
    });
    const run = ended.run;
    if (run === null) throw new CliError(`Drill run ${id} did not end while followed; see the GUI's Drills screen.`);
    const drill = run.drill;
    if (drill === undefined || drill.verdict === null) {
      const said = say('said.text', { text: run.error ?? 'The drill ended before it reached a verdict; run it again.' });
      return { verdict: 'UNVERIFIED', checks: [{ name: 'drill', status: 'unverified', ...said }], id, kind };
    }
    return { verdict: drill.verdict, checks: drill.checks, id, kind };
  });
}
