// `sanad backup copy-offsite`: the newest local generation to every offsite repository that does
// not have it yet ("Copy to offsite now" in the GUI), without making a new generation. Exit 0 when
// every target has it, 3 when one failed, 1 when there was nothing to copy (no backup yet, no target).
import { backupDepsFor } from '../../backup/backup-deps.js';
import { copyToOffsite } from '../../backup/offsite-catch-up.js';
import { BackupBusyError } from '../../backup/run-backup.js';
import { systemClock } from '../../clock.js';
import { OffsiteCatchUp } from '../../contract/backups.js';
import { createLogger, levelFromEnv } from '../../log/logger.js';
import { CliError } from '../cli-error.js';
import type { Io } from '../io.js';
import { errorMessage, hereOrInService } from '../running-service.js';
import { secretStoreFor } from '../secrets-access.js';
import { withStore } from '../store-access.js';

/** A copy to a slow target takes as long as an upload: the service's answer is waited for that long. */
const ANSWER_TIMEOUT_MS = 6 * 3_600_000;

export async function copyOffsiteCommand(dataDir: string, io: Io, secretsFile: string | undefined): Promise<number> {
  const starting = (): void => io.note('Copying the newest backup to the offsite targets that do not have it yet…');
  const done = await hereOrInService(
    dataDir,
    'sanad backup copy-offsite',
    async () => {
      starting();
      const store = await secretStoreFor(dataDir, secretsFile);
      const logger = createLogger({ level: levelFromEnv(process.env.SANAD_LOG ?? 'warn') });
      try {
        return await withStore(dataDir, async (db) => copyToOffsite(await backupDepsFor({ db, dataDir, store, clock: systemClock, logger })));
      } catch (err) {
        if (err instanceof BackupBusyError)
          throw new CliError(
            'A backup is running on this data dir (another sanad command); it sends the newest generation everywhere itself. Wait for it, then copy again.',
          );
        throw err;
      }
    },
    async (call) => {
      starting();
      const answer = await call('POST', '/admin/backups/offsite-copy', {}, ANSWER_TIMEOUT_MS);
      if (answer.status !== 200) throw new CliError(errorMessage(answer.body, `The running Sanad answered ${answer.status} to "copy to offsite now".`));
      return OffsiteCatchUp.parse(answer.body);
    },
  );
  io.result(done, () =>
    done.said
      ? done.said.detail
      : [
          `Generation ${done.generation ?? '(none)'}:`,
          ...done.targets.map((t) => `  ${t.name}: ${t.status === 'failed' ? `FAILED: ${t.said.detail}` : t.said.detail}`),
        ].join('\n'),
  );
  if (done.said) return 1;
  return done.targets.some((t) => t.status === 'failed') ? 3 : 0;
}
