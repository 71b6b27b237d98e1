// GET /v1/tls/certificate (no auth, both listeners): the certificate a device trusts, as PEM, so it
// can compare its fingerprint with the one the pairing screen shows before it sends the code.
import type { FastifyInstance } from 'fastify';
import { checkHostAndOrigin } from '../auth.js';
import { ApiError } from '../errors.js';
import type { RouteKit } from './route-kit.js';

export function registerTlsRoutes(app: FastifyInstance, kit: RouteKit): void {
  app.get('/v1/tls/certificate', async (req, reply) => {
    checkHostAndOrigin(kit.listener, req);
    const pem = await kit.ctx.lan.certificatePem();
    if (pem === null) {
      throw new ApiError(
        'lan_off',
        'There is no certificate for devices yet: it is made when "Let devices on this network use Sanad" is first switched on in Settings (or with `sanad serve --lan`).',
      );
    }
    return reply
      .type('application/x-pem-file')
      .header('x-tls-fingerprint-sha256', kit.ctx.lan.fingerprint() ?? '')
      .send(pem);
  });
}
