// /admin/lan: the network listener's state for the GUI's Settings and pairing screens, and the
// "new certificate" action. The switch itself is the `lan_enabled` setting (PATCH /admin/settings).
import type { FastifyInstance } from 'fastify';
import type { LanStatus } from '../../contract/lan.js';
import { secured, type RouteKit } from './route-kit.js';

export function registerLanRoutes(app: FastifyInstance, kit: RouteKit): void {
  const { ctx } = kit;
  const admin = secured(kit, 'admin');
  app.get('/admin/lan', { preHandler: admin }, async (): Promise<LanStatus> => ctx.lan.status());
  app.post('/admin/lan/new-certificate', { preHandler: admin }, async (): Promise<LanStatus> => {
    await ctx.lan.newCertificate();
    ctx.logger.info('new device certificate: every paired device must trust it again', { fingerprint: ctx.lan.fingerprint() });
    ctx.adminEvents.publish('lan.changed', { change: 'new-certificate' });
    return ctx.lan.status();
  });
}
