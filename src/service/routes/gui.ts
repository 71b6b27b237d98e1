// The GUI's entry: the one-time login URL that `sanad serve` prints, and the page itself (the
// React GUI replaces the placeholder page in a later version).
import type { FastifyInstance } from 'fastify';
import { checkHostAndOrigin, SESSION_COOKIE } from '../auth.js';
import { ApiError } from '../errors.js';
import type { RouteKit } from './kit.js';

const PLACEHOLDER = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Sanad</title></head>
<body><h1>Sanad is running</h1><p>The LMSP service is at <code>/v1</code>. The full GUI arrives in a later version.</p></body></html>`;

export function registerGuiRoutes(app: FastifyInstance, kit: RouteKit): void {
  const { ctx } = kit;
  app.get<{ Querystring: { code?: string } }>('/login', async (req, reply) => {
    checkHostAndOrigin(ctx, req);
    const session = req.query.code ? ctx.login.redeem(req.query.code) : null;
    if (!session) throw new ApiError(403, 'permission_error', 'login_code_invalid', 'This login link was already used or is wrong; run `sanad serve` again or ask it for a new link.');
    void reply.header('set-cookie', `${SESSION_COOKIE}=${session}; HttpOnly; SameSite=Strict; Path=/`);
    return reply.redirect('/', 303);
  });
  app.get('/', async (_req, reply) => reply.type('text/html; charset=utf-8').header('content-security-policy', "default-src 'self'").send(PLACEHOLDER));
}
