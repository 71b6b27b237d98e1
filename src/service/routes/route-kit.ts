// What every route module gets: the context, the shared rate limiter, and the pre-handlers that
// run in the contract's order: authenticate, check scope, count the rate, then idempotency.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Scope } from '../../store/clients.js';
import { guard, type GuardKit } from '../auth.js';
import type { PairingThrottle } from '../pairing-throttle.js';
import type { ServiceContext } from '../context.js';
import { reserveOrReplay, type Replay } from '../idempotency.js';

export interface RouteKit extends GuardKit {
  ctx: ServiceContext;
  /** Failed pairing codes on this listener (pair.ts). */
  pairing: PairingThrottle;
}

type PreHandler = (req: FastifyRequest, reply: FastifyReply) => Promise<unknown>;

/** A replay that a route answers in its own way (an SSE re-stream); returns true if it did. */
export type ReplayHandler = (req: FastifyRequest, reply: FastifyReply, replay: Replay) => Promise<boolean>;

export function secured(kit: RouteKit, scope: Scope | Scope[], onReplay?: ReplayHandler): PreHandler[] {
  const auth = guard(kit, scope);
  const idem: PreHandler = async (req, reply) => {
    // Keys belong to POSTs (the contract); a read with one must show the current state.
    if (req.method !== 'POST') return undefined;
    const replay = reserveOrReplay(kit.ctx, req);
    if (!replay) return undefined;
    void reply.header('idempotent-replayed', 'true');
    if (onReplay && (await onReplay(req, reply, replay))) return reply;
    return reply.code(replay.status).type('application/json').send(replay.body);
  };
  return [auth, idem];
}
