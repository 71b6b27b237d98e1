// Browser apps on other origins, allowed one by one in Settings (`allowed_origins`, empty by
// default), as LM Studio and Ollama let a person allow them: only the model routes under /v1 answer
// them (never /admin, /login or the GUI), a preflight is answered only for an allowed origin, and
// the answer names that origin alone, never "*".
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ServiceContext } from './context.js';

/** Headers a browser may read from an answer (the SDKs read these). */
const EXPOSED = 'x-request-id, idempotent-replayed, location, retry-after, x-should-retry';

export function isModelRoute(url: string): boolean {
  return url.startsWith('/v1/') && !url.startsWith('/v1/pair');
}

/** The request's Origin when Settings allow it on this route; otherwise null. */
export function allowedOrigin(ctx: Pick<ServiceContext, 'settings'>, req: Pick<FastifyRequest, 'headers' | 'url'>): string | null {
  const origin = req.headers.origin;
  if (typeof origin !== 'string' || !isModelRoute(req.url)) return null;
  return ctx.settings().allowed_origins.some((o) => o.toLowerCase() === origin.toLowerCase()) ? origin : null;
}

function corsHeaders(reply: FastifyReply, origin: string): void {
  // Raw headers, so a stream (which takes the reply over) carries them too.
  reply.raw.setHeader('access-control-allow-origin', origin);
  reply.raw.setHeader('vary', 'Origin');
  reply.raw.setHeader('access-control-expose-headers', EXPOSED);
}

export function installBrowserOrigins(app: FastifyInstance, ctx: Pick<ServiceContext, 'settings'>): void {
  app.addHook('onRequest', async (req, reply) => {
    const origin = allowedOrigin(ctx, req);
    if (origin === null) return;
    corsHeaders(reply, origin);
    if (req.method !== 'OPTIONS') return;
    // The preflight: what the page may send, echoed from its own request (the SDKs add their headers).
    const asked = req.headers['access-control-request-headers'];
    reply.raw.setHeader('access-control-allow-methods', 'GET, POST, DELETE, OPTIONS');
    reply.raw.setHeader('access-control-allow-headers', typeof asked === 'string' ? asked : 'authorization, content-type');
    reply.raw.setHeader('access-control-max-age', '600');
    return reply.code(204).send();
  });
}
