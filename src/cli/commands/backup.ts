// `sanad backup now`: one generation, sent to every enabled repository. Exit 0 all ok, 3 local ok
// but an offsite failed, 1 failed. Safe beside a running service: a file lock keeps runs apart.
import { parseArgs } from 'node:util';
import { backupDepsFor } from '../../backup/backup-deps.js';
import { runBackup, type BackupPhase } from '../../backup/run-backup.js';
import { systemClock } from '../../clock.js';
import { createLogger, levelFromEnv } from '../../log/logger.js';
import { secretStoreFor } from '../secrets-access.js';
import { CliError, usageError } from '../cli-error.js';
import type { Io } from '../io.js';
import { withStore } from '../store-access.js';

export async function backupCommand(args: string[], dataDir: string, io: Io, secretsFile: string | undefined): Promise<number> {
  const [sub, ...rest] = args;
  if (sub !== 'now') throw usageError(sub ? `Unknown backup command "${sub}".` : 'Say what to do: `sanad backup now`.');
  parseArgs({ args: rest, options: {}, strict: true });
  const store = await secretStoreFor(dataDir, secretsFile);
  const logger = createLogger({ level: levelFromEnv(process.env.SANAD_LOG ?? 'warn') });
  let lastShown = -10;
  const onProgress = (p: BackupPhase): void => {
    if (io.json || p.phase !== 'upload' || p.percent - lastShown < 0.1) return;
    lastShown = p.percent;
    io.note(`${p.repository}: ${Math.round(p.percent * 100)}% (${p.files_done}/${p.total_files} files)`);
  };
  const outcome = await withStore(dataDir, async (db) => {
    const deps = await backupDepsFor({ db, dataDir, store, clock: systemClock, logger });
    return runBackup(deps, { trigger: 'cli', onProgress });
  }).catch((err: unknown) => {
    throw new CliError(err instanceof Error ? err.message : String(err));
  });
  io.result({ generation: outcome.generation, repositories: outcome.repositories, offsite_copy: outcome.offsite_copy }, () =>
    [
      `Generation ${outcome.generation ?? '(none)'}: ${outcome.status}`,
      ...outcome.repositories.map((r) => `  ${r.name}: ${r.ok ? `ok, snapshot ${r.snapshot_id ?? ''}` : `FAILED: ${r.error ?? ''}`}`),
      ...(outcome.offsite_copy ? [`  copy to ${outcome.offsite_copy.destination}: ${outcome.offsite_copy.ok ? `ok, ${outcome.offsite_copy.name ?? ''}` : `FAILED: ${outcome.offsite_copy.error ?? ''}`}`] : []),
      ...(outcome.error && outcome.repositories.length === 0 ? [`  ${outcome.error}`] : []),
    ].join('\n'),
  );
  return outcome.status === 'ok' ? 0 : outcome.status === 'partial' ? 3 : 1;
}
