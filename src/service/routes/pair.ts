// POST /v1/pair: a client redeems a one-time code for its own token. No bearer token needed, so
// failures are rate-limited per address to make guessing codes pointless.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { unixSeconds } from '../../clock.js';
import { redeemPairingCode } from '../../store/pairing-codes.js';
import { checkHostAndOrigin } from '../auth.js';
import { ApiError, badRequest } from '../errors.js';
import type { RouteKit } from './kit.js';

const PairBody = z.object({ code: z.string().min(1).max(64), client_name: z.string().trim().min(1).max(100) });
const MAX_FAILURES = 10; // per address per window

export function registerPairRoutes(app: FastifyInstance, kit: RouteKit): void {
  const { ctx, pairingLimiter } = kit;
  app.post('/v1/pair', async (req, reply) => {
    checkHostAndOrigin(ctx, req);
    const ip = req.ip;
    pairingLimiter.check(ip, MAX_FAILURES);
    const parsed = PairBody.safeParse(req.body);
    if (!parsed.success) {
      const param = parsed.error.issues[0]?.path.join('.') || null;
      throw badRequest(`Invalid value for ${param ?? 'the body'}: send {"code": "XXXX-XXXX", "client_name": "..."}.`, param);
    }
    const made = redeemPairingCode(ctx.writer, parsed.data.code, parsed.data.client_name, unixSeconds(ctx.clock));
    if (!made) {
      pairingLimiter.hit(ip, Number.MAX_SAFE_INTEGER);
      throw new ApiError(403, 'permission_error', 'pairing_code_invalid', 'This pairing code is unknown, expired or already used; ask for a new one.');
    }
    ctx.logger.info('client paired', { client_id: made.client.id, name: made.client.name });
    ctx.adminEvents.publish('clients.changed', { client_id: made.client.id, change: 'paired' });
    return reply.code(201).send({ client_id: made.client.id, token: made.token, scopes: made.client.scopes });
  });
}
