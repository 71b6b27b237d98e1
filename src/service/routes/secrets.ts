// /admin routes for the vault and the recovery kit. Vault values go in and never come back out:
// the API lists names only.
import type { KitConfirmed, RecoveryKit } from '../../contract/secrets.js';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod/v3';
import { recoveryLocations } from '../../repository/repositories.js';
import { buildRecoveryKit, confirmRecoveryKit, recoveryKitConfirmedAt } from '../../secrets/recovery-kit.js';
import { rotateVaultKey } from '../../secrets/vault-rotation.js';
import { JobRefusedError } from '../../jobs/jobs.js';
import { Vault } from '../../secrets/vault.js';
import { ApiError, badRequest, notFound } from '../errors.js';
import { secured, type RouteKit } from './route-kit.js';
import { SecretValueRequest } from '../../contract/admin-requests.js';

const NAME = /^[A-Za-z0-9][A-Za-z0-9._:/-]{0,127}$/;

export function registerSecretRoutes(app: FastifyInstance, kit: RouteKit): void {
  const { ctx } = kit;
  const admin = secured(kit, 'admin');
  const checkName = (name: string): string => {
    if (!NAME.test(name)) throw badRequest('A secret name is 1 to 128 letters, digits or . _ : / -.', 'name');
    return name;
  };

  app.get('/admin/secrets', { preHandler: admin }, async () => ({ object: 'list', data: ctx.secrets.vault.names().map((name) => ({ name })) }));

  app.put<{ Params: { name: string } }>('/admin/secrets/:name', { preHandler: admin }, async (req) => {
    const name = checkName(req.params.name);
    const body = SecretValueRequest.safeParse(req.body);
    if (!body.success) throw badRequest('Send {"value": "..."} with a non-empty string of at most 64 KiB.', 'value');
    ctx.secrets.vault.set(name, body.data.value);
    return { name, stored: true };
  });

  app.delete<{ Params: { name: string } }>('/admin/secrets/:name', { preHandler: admin }, async (req) => {
    const name = checkName(req.params.name);
    if (!ctx.secrets.vault.delete(name)) throw notFound(`Secret ${name}`, 'secret_not_found');
    return { name, deleted: true };
  });

  app.post('/admin/vault/rotate-key', { preHandler: admin }, async () => {
    let job;
    try {
      // A job of the owner: a backup (which copies the vault) waits for it, and it for a backup.
      job = ctx.jobs.start('vault-rotation', async () => rotateVaultKey(ctx.writer, ctx.secrets.store, ctx.secrets.master.vaultKey));
    } catch (err) {
      if (err instanceof JobRefusedError) throw new ApiError('rotation_running', 'A vault key rotation is already running; wait for it to finish.');
      throw err;
    }
    const key = await job.done;
    ctx.logger.addSecret(key.toString('base64'));
    ctx.secrets.master.vaultKey = key;
    ctx.secrets.vault = new Vault(ctx.writer, key, ctx.clock);
    ctx.adminEvents.publish('vault.rotated', { values: ctx.secrets.vault.names().length });
    return { rotated: true, values: ctx.secrets.vault.names().length };
  });

  app.get('/admin/recovery-kit', { preHandler: admin }, async (): Promise<z.infer<typeof RecoveryKit>> => ({
    ...buildRecoveryKit({ dataDir: ctx.dataDir, passphrase: ctx.secrets.master.resticPassphrase, repositories: recoveryLocations(ctx.db), clock: ctx.clock }),
    confirmed_at: recoveryKitConfirmedAt(ctx.db),
  }));

  app.post('/admin/recovery-kit/confirm', { preHandler: admin }, async (): Promise<z.infer<typeof KitConfirmed>> => ({
    confirmed_at: confirmRecoveryKit(ctx.writer, ctx.clock),
  }));
}
