// `sanad drill [--deep] [--repo NAME]`: verifies the backups without writing to them and without
// restoring over anything. Exit 0 PASS, 1 FAIL, 2 UNVERIFIED (and 2 for a wrong command line, the
// CLI's convention). The checklist goes to stderr, `--json` to stdout; the run is stored like a
// scheduled one, so the GUI shows it. Safe beside a running `sanad serve`: it writes only its own
// run row, the read rotation and alerts, and a file lock keeps it from running beside another drill.
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
  if (io.json) io.out(JSON.stringify(report));
  else io.note([`Drill (${report.kind}): ${report.verdict}`, ...report.checks.map((c) => `  ${LABEL[c.status].padEnd(10)} ${c.name}: ${c.detail}`)].join('\n'));
  return exitCodeOf(report.verdict);
}
