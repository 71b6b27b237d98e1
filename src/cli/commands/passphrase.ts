// `sanad passphrase rotate`: a new restic passphrase for every repository (add, verify, persist,
// then remove the old keys). Exit 0 when rotated (an old key left behind is a warning); 1 when it
// was not, and then nothing was revoked. Beside a running service it asks the service to do it.
import { parseArgs } from 'node:util';
import { z } from 'zod/v3';
import { backupDepsFor } from '../../backup/backup-deps.js';
import { PassphraseRotationError, rotatePassphrase, RotationBusyError, type RotationReport, type RotationStep } from '../../backup/passphrase-rotation.js';
import { ResticError } from '../../repository/restic/index.js';
import { systemClock } from '../../clock.js';
import { createLogger, levelFromEnv } from '../../log/logger.js';
import { secretStoreFor } from '../secrets-access.js';
import { CliError, usageError } from '../cli-error.js';
import type { Io } from '../io.js';
import { errorMessage, hereOrInService, LONG_REQUEST_MS } from '../running-service.js';
import { withStore } from '../store-access.js';

const ReportSchema = z.object({
  rotated: z.literal(true),
  repositories: z.array(z.object({ name: z.string(), ok: z.boolean(), skipped: z.string().nullable(), old_keys_removed: z.boolean() })),
  warnings: z.array(z.string()),
  notes: z.array(z.string()),
});

const STEP_NOTES: Partial<Record<RotationStep, string>> = {
  'keys-added': 'New key added to every repository.',
  verified: 'The new passphrase opens every repository.',
  persisted: 'The new passphrase is saved in the keychain.',
};

export async function passphraseCommand(args: string[], dataDir: string, io: Io, secretsFile: string | undefined): Promise<number> {
  const [sub, ...rest] = args;
  if (sub !== 'rotate') throw usageError(sub ? `Unknown passphrase command "${sub}".` : 'Say what to do: `sanad passphrase rotate`.');
  parseArgs({ args: rest, options: {}, strict: true });
  const report = await hereOrInService(
    dataDir,
    'sanad passphrase rotate',
    () => rotateHere(dataDir, io, secretsFile),
    async (call) => {
      if (!io.json) io.note('Sanad is running on this data dir: it does the rotation.');
      const answer = await call('POST', '/admin/passphrase/rotate', undefined, LONG_REQUEST_MS);
      const parsed = ReportSchema.safeParse(answer.body);
      if (answer.status === 200 && parsed.success) return parsed.data;
      throw new CliError(errorMessage(answer.body, `The running Sanad answered ${answer.status}; the passphrase was not rotated. See its log.`));
    },
  );
  io.result(report, () => describe(report));
  return 0;
}

async function rotateHere(dataDir: string, io: Io, secretsFile: string | undefined): Promise<RotationReport> {
  const store = await secretStoreFor(dataDir, secretsFile);
  const logger = createLogger({ level: levelFromEnv(process.env.SANAD_LOG ?? 'warn') });
  return withStore(dataDir, async (db) => {
    try {
      const deps = await backupDepsFor({ db, dataDir, store, clock: systemClock, logger });
      const onStep = (step: RotationStep, repository?: string): void => {
        const note = step === 'adding-key' ? `Adding the new key to "${repository ?? ''}"…` : STEP_NOTES[step];
        if (note && !io.json) io.note(note);
      };
      return (await rotatePassphrase({ ...deps, store }, { onStep })).report;
    } catch (err) {
      if (err instanceof PassphraseRotationError || err instanceof RotationBusyError || err instanceof ResticError) throw new CliError(err.message);
      throw err;
    }
  });
}

function describe(report: z.infer<typeof ReportSchema>): string {
  const lines = ['The backup passphrase was rotated.'];
  for (const r of report.repositories) {
    if (r.skipped) lines.push(`  ${r.name}: skipped, ${r.skipped}`);
    else lines.push(`  ${r.name}: new key verified, ${r.old_keys_removed ? 'old key removed' : 'OLD KEY NOT REMOVED yet'}`);
  }
  for (const w of report.warnings) lines.push(`Warning: ${w}`);
  for (const n of report.notes) lines.push(n);
  return lines.join('\n');
}
