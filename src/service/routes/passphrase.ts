// POST /admin/passphrase/rotate: rotates the restic passphrase of every repository in this process
// (the CLI calls it when a service is running, so the two never race). 200 with what was done,
// 409 while a backup runs, and a failure before the persist says that nothing was revoked.
import type { RotationReport } from '../../contract/secrets.js';
import type { FastifyInstance } from 'fastify';
import { backupDepsFor } from '../../backup/backup-deps.js';
import { PassphraseRotationError, rotatePassphrase, RotationBusyError } from '../../backup/passphrase-rotation.js';
import { ResticError } from '../../repository/restic/index.js';
import { KeychainUnavailableError, MissingSecretError } from '../../secrets/errors.js';
import { JobRefusedError } from '../../jobs/jobs.js';
import { ApiError } from '../errors.js';
import { secured, type RouteKit } from './route-kit.js';

const busy = (err: Error): ApiError =>
  err instanceof JobRefusedError && err.blocking === 'passphrase-rotation'
    ? new ApiError('rotation_running', 'A passphrase rotation is already running; wait for it to finish.')
    : new ApiError('backup_running', 'A backup is running; rotate the passphrase when it has finished.');

export function registerPassphraseRoutes(app: FastifyInstance, kit: RouteKit): void {
  const { ctx } = kit;
  app.post('/admin/passphrase/rotate', { preHandler: secured(kit, 'admin') }, async (): Promise<RotationReport> => {
    try {
      // A job of the owner: refused beside a backup or its maintenance (job-table.ts); a drill or
      // restore asked for meanwhile waits for it.
      const job = ctx.jobs.start('passphrase-rotation', async () => {
        const deps = await backupDepsFor({ db: ctx.writer, dataDir: ctx.dataDir, clock: ctx.clock, logger: ctx.logger, store: ctx.secrets.store });
        return rotatePassphrase({ ...deps, store: ctx.secrets.store });
      });
      const { report, passphrase } = await job.done;
      // The recovery-kit route and the log's redaction read the passphrase from here.
      ctx.secrets.master.resticPassphrase = passphrase;
      ctx.adminEvents.publish('passphrase.rotated', { repositories: report.repositories, warnings: report.warnings });
      return report;
    } catch (err) {
      if (err instanceof RotationBusyError || err instanceof JobRefusedError) throw busy(err);
      if (err instanceof KeychainUnavailableError) throw err;
      if (err instanceof PassphraseRotationError) throw new ApiError('passphrase_not_rotated', err.message);
      if (err instanceof ResticError || err instanceof MissingSecretError) {
        throw new ApiError('passphrase_not_rotated', `The passphrase was not rotated: ${err.message}`);
      }
      throw err;
    }
  });
}
