// /admin: what the GUI (and scripts with an admin token) use to run the appliance. Every route
// needs the `admin` scope (or the GUI session) and passes the Host/Origin check.
import { assertRemoteConfigured } from '../../repository/rclone.js';
import type { AdminStatus } from '../../contract/status.js';
import type { ClientInfo, ClientRevoked, NewClient, PairingCode } from '../../contract/clients.js';
import type { Settings } from '../../contract/settings.js';
import type { FastifyInstance } from 'fastify';
import { unixSeconds } from '../../clock.js';
import { parseRcloneDestination } from '../../repository/rclone-destination.js';
import { ModelRegistryError } from '../../engine/registry.js';
import { createClient, listClients, revokeClient } from '../../store/clients.js';
import { createPairingCode } from '../../store/pairing-codes.js';
import { SettingsSchema } from '../../store/settings.js';
import { recoveryKitConfirmedAt } from '../../secrets/recovery-kit.js';
import { cancelTask } from '../../tasks/cancel.js';
import { countTasksByStatus, unfinishedTasksOf } from '../../tasks/queries.js';
import { ApiError, badRequest, notFound } from '../errors.js';
import { endStreamsOf } from '../flood-limits.js';
import { secured, type RouteKit } from './route-kit.js';
import { parseOptionalBody } from '../validate.js';
import { AddModelRequest, NewClientRequest, PairingCodeRequest } from '../../contract/admin-requests.js';

export function registerAdminRoutes(app: FastifyInstance, kit: RouteKit): void {
  const { ctx } = kit;
  const admin = secured(kit, 'admin');
  const now = (): number => unixSeconds(ctx.clock);

  app.post('/admin/pairing-codes', { preHandler: admin }, async (req, reply) => {
    const body = parseOptionalBody(PairingCodeRequest, req.body);
    const made = createPairingCode(ctx.writer, body.scopes, body.ttl_s, now());
    // While devices on the network may pair: where, and the certificate they pin before the code.
    const lan = ctx.lan.status();
    const answer: PairingCode =
      lan.running && lan.url !== null && lan.tls_fingerprint_sha256 !== null
        ? { ...made, lan_url: lan.url, tls_fingerprint_sha256: lan.tls_fingerprint_sha256 }
        : made;
    return reply.code(201).send(answer);
  });

  app.get('/admin/clients', { preHandler: admin }, async (): Promise<{ object: 'list'; data: ClientInfo[] }> => ({
    object: 'list',
    data: listClients(ctx.db),
  }));

  app.post('/admin/clients', { preHandler: admin }, async (req, reply) => {
    const body = parseOptionalBody(NewClientRequest, req.body);
    const made = createClient(ctx.writer, body.name, body.scopes, now());
    ctx.adminEvents.publish('clients.changed', { client_id: made.client.id, change: 'created' });
    const answer: NewClient = { client_id: made.client.id, token: made.token, scopes: made.client.scopes };
    return reply.code(201).send(answer);
  });

  app.post<{ Params: { id: string } }>('/admin/clients/:id/revoke', { preHandler: admin }, async (req) => {
    if (!revokeClient(ctx.writer, req.params.id, now())) throw notFound(`Client ${req.params.id}`, 'client_not_found');
    // At once: its open event streams end, and what it still has running or waiting is cancelled
    // (a foreground request waiting on its task ends with it); its next request is 401 anyway.
    endStreamsOf(ctx, req.params.id);
    const cancelled = unfinishedTasksOf(ctx.db, req.params.id).filter((id) =>
      cancelTask(ctx.writer, ctx.ledger, ctx.runner, id).outcome.startsWith('cancel'),
    ).length;
    if (cancelled > 0) ctx.logger.info("a revoked client's tasks were cancelled", { client_id: req.params.id, tasks: cancelled });
    ctx.adminEvents.publish('clients.changed', { client_id: req.params.id, change: 'revoked' });
    const answer: ClientRevoked = { id: req.params.id, revoked: true };
    return answer;
  });

  app.post('/admin/models', { preHandler: admin }, async (req, reply) => {
    const body = parseOptionalBody(AddModelRequest, req.body);
    try {
      return reply.code(201).send(await ctx.models.add(body.path, body.id));
    } catch (err) {
      if (!(err instanceof ModelRegistryError)) throw err;
      throw new ApiError(err.code, err.message, err.code === 'invalid_id' ? 'id' : 'path');
    }
  });

  app.delete<{ Params: { id: string } }>('/admin/models/:id', { preHandler: admin }, async (req) => {
    if (!ctx.models.remove(req.params.id)) throw notFound(`Model ${req.params.id}`, 'model_not_found');
    return { id: req.params.id, object: 'model.deleted', deleted: true };
  });

  app.get('/admin/settings', { preHandler: admin }, async (): Promise<Settings> => ctx.settings());

  app.patch('/admin/settings', { preHandler: admin }, async (req) => {
    const patch = parseOptionalBody(SettingsSchema.partial().strict(), req.body);
    // Refused here, where the user types it, rather than at the next backup's upload.
    if (typeof patch.offsite_copy_destination === 'string') {
      try {
        parseRcloneDestination(patch.offsite_copy_destination);
        const config = patch.offsite_copy_rclone_config ?? ctx.settings().offsite_copy_rclone_config;
        await assertRemoteConfigured(patch.offsite_copy_destination, config ? { config } : {});
      } catch (err) {
        throw badRequest(err instanceof Error ? err.message : String(err), 'offsite_copy_destination');
      }
    }
    if (patch.lan_enabled === undefined && patch.lan_port === undefined) return ctx.updateSettings(patch);
    const before = ctx.settings();
    const next = ctx.updateSettings(patch);
    try {
      await ctx.lan.apply();
    } catch (err) {
      // The switch stays where it was: a port in use must not leave "on" saved with nothing listening.
      ctx.updateSettings({ lan_enabled: before.lan_enabled, lan_port: before.lan_port });
      await ctx.lan.apply().catch(() => undefined);
      throw new ApiError('lan_unavailable', err instanceof Error ? err.message : String(err), patch.lan_port !== undefined ? 'lan_port' : 'lan_enabled');
    }
    ctx.adminEvents.publish('lan.changed', { change: next.lan_enabled ? 'on' : 'off' });
    return next;
  });

  app.get('/admin/status', { preHandler: admin }, async (): Promise<AdminStatus> => ({
    service: { address: `http://${ctx.address.host}:${ctx.address.port}`, loaded_model: ctx.inMemory.list()[0]?.id ?? null, data_dir: ctx.dataDir },
    secrets: { store: ctx.secrets.store.kind, recovery_kit_confirmed_at: recoveryKitConfirmedAt(ctx.db) },
    tasks: { running: ctx.runner.runningCount(), queued: ctx.runner.queuedCount(), by_status: countTasksByStatus(ctx.db) },
  }));
}
