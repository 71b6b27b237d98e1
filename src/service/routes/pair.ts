// POST /v1/pair: a client redeems a one-time code for its own token. No bearer token needed, so
// failures are throttled (pairing-throttle.ts) to make guessing codes pointless.
import type { FastifyInstance } from 'fastify';
import { unixSeconds } from '../../clock.js';
import { touchClient } from '../../store/clients.js';
import { redeemPairingCode } from '../../store/pairing-codes.js';
import { checkHostAndOrigin, remoteAddress } from '../auth.js';
import { ApiError, badRequest } from '../errors.js';
import type { RouteKit } from './route-kit.js';
import { PairRequest } from '../../contract/admin-requests.js';

// On this machine brute force is held off by one global budget of failed codes in a short window,
// not by address: on loopback every caller is 127.0.0.1, and a per-address lock let any local program block pairing
// for everyone for ten minutes with ten bad codes. With 10 failures a second at most, a guesser gets
// 36,000 tries in an hour against 31^8 ≈ 8.5e11 codes (a chance below 5e-8 per live code); a
// flood can delay the owner's pairing only second by second (429, Retry-After: 1), for as long as
// it keeps flooding, and a code entered after it stops works at once.
export const PAIRING_FAILURES_PER_WINDOW = 10;
export const PAIRING_WINDOW_MS = 1_000;

export function registerPairRoutes(app: FastifyInstance, kit: RouteKit): void {
  const { ctx, pairing } = kit;
  app.post('/v1/pair', async (req, reply) => {
    checkHostAndOrigin(kit.listener, req);
    const address = remoteAddress(req);
    pairing.check(address);
    const parsed = PairRequest.safeParse(req.body);
    if (!parsed.success) {
      const param = parsed.error.issues[0]?.path.join('.') || null;
      throw badRequest(`Invalid value for ${param ?? 'the body'}: send {"code": "XXXX-XXXX", "client_name": "..."}.`, param);
    }
    const made = redeemPairingCode(ctx.writer, parsed.data.code, parsed.data.client_name, unixSeconds(ctx.clock));
    if (!made) {
      pairing.failed(address);
      throw new ApiError('pairing_code_invalid', 'This pairing code is unknown, expired or already used; ask for a new one.');
    }
    pairing.succeeded(address);
    touchClient(ctx.writer, made.client, unixSeconds(ctx.clock), address);
    ctx.logger.info('client paired', { client_id: made.client.id, name: made.client.name, over: kit.listener.kind });
    ctx.adminEvents.publish('clients.changed', { client_id: made.client.id, change: 'paired' });
    return reply.code(201).send({ client_id: made.client.id, token: made.token, scopes: made.client.scopes });
  });
}
