// The GUI: the built React app (dist/gui, made by `npm run build`) at `/` with its hashed assets,
// also at `/login` (the one-time link `sanad serve` prints: the page itself trades the code with
// POST /login for a session token, login-codes.ts), and sign-out. The page holds no data; all it
// shows comes from the admin API, with the token in the X-Sanad-Session header.
import { readFile } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { checkHostAndOrigin, SESSION_HEADER, sessionStreamsKey, sessionToken } from '../auth.js';
import { endStreamsOf } from '../flood-limits.js';
import { serviceBaseUrl } from '../base-url.js';
import { ApiError, notFound } from '../errors.js';
import { CODE_TTL_MS } from '../login-codes.js';
import { secured, type RouteKit } from './route-kit.js';

/** dist/gui beside dist/src (this file is dist/src/service/routes/gui.js once compiled). */
export const GUI_DIR = fileURLToPath(new URL('../../../gui/', import.meta.url));
/** The app icon (build/icons, beside dist/ in a checkout and inside the packaged app). */
const ICON = fileURLToPath(new URL('../../../../build/icons/icon.png', import.meta.url));

// Vite's production build has no inline script or style; the app only talks to this origin.
export const GUI_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "font-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
};
// Hashed names only: no slashes, no dot-dot, so a request can never leave the assets folder.
const ASSET_NAME = /^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*\.(js|css|map|svg|png|ico|woff2)$/;

const NOT_BUILT = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Sanad</title></head>
<body><h1>Sanad is running</h1><p>The GUI has not been built in this checkout: run <code>npm run build</code>.
The LMSP service is at <code>/v1</code>.</p></body></html>`;

function secureHeaders(reply: FastifyReply): FastifyReply {
  return reply.header('x-content-type-options', 'nosniff').header('referrer-policy', 'no-referrer').header('x-frame-options', 'DENY');
}

export function registerGuiRoutes(app: FastifyInstance, kit: RouteKit, guiDir: string = GUI_DIR): void {
  const { ctx } = kit;
  app.post<{ Body: unknown }>('/login', async (req) => {
    checkHostAndOrigin(kit.listener, req);
    const body = req.body;
    const code = typeof body === 'object' && body !== null && 'code' in body && typeof body.code === 'string' ? body.code : null;
    if (code === null) throw new ApiError('missing_code', 'Send the login code as JSON: {"code": "…"}.', 'code');
    const session = ctx.login.redeem(code);
    if (!session)
      throw new ApiError(
        'login_code_invalid',
        'This login link was already used, is older than 10 minutes or is wrong; restart `sanad serve` for a new one (the desktop app signs in by itself).',
      );
    return { token: session.token, header: SESSION_HEADER, expires_at: Math.floor(session.expiresAt / 1000) };
  });

  // A new login link for a browser (sanad login-link): the session of a link ends after 12 idle
  // hours, and a link works once, so a person needs a way to get the next one.
  app.post('/admin/login-link', { preHandler: secured(kit, 'admin') }, async () => ({
    login_url: `${serviceBaseUrl(ctx)}/login?code=${ctx.login.issue()}`,
    expires_in_seconds: CODE_TTL_MS / 1000,
  }));

  app.post('/admin/logout', async (req, reply) => {
    checkHostAndOrigin(kit.listener, req);
    const token = sessionToken(req);
    if (token !== null) {
      ctx.login.endSession(token);
      // Its open /admin/events streams end with it: signed out means nothing more is sent there.
      endStreamsOf(ctx, sessionStreamsKey(token));
    }
    return reply.code(204).send();
  });

  const page = async (req: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> => {
    checkHostAndOrigin(kit.listener, req);
    const html = await readFile(join(guiDir, 'index.html'), 'utf8').catch(() => NOT_BUILT);
    return secureHeaders(reply).type('text/html; charset=utf-8').header('cache-control', 'no-cache').header('content-security-policy', GUI_CSP).send(html);
  };
  app.get('/', page);
  // The login link opens the GUI; its script redeems the code and drops it from the address bar.
  app.get('/login', page);

  // The browser asks for it on every page: serve the app icon rather than log a 404 each time.
  const icon = async (_req: unknown, reply: FastifyReply): Promise<FastifyReply> => {
    const body = await readFile(ICON).catch(() => null);
    if (body === null) throw notFound('The icon', 'asset_not_found');
    return secureHeaders(reply).type('image/png').header('cache-control', 'public, max-age=86400').send(body);
  };
  app.get('/favicon.ico', icon);
  app.get('/favicon.png', icon);

  app.get<{ Params: { name: string } }>('/assets/:name', async (req, reply) => {
    const name = req.params.name;
    if (!ASSET_NAME.test(name)) throw notFound('This file', 'asset_not_found');
    const body = await readFile(join(guiDir, 'assets', name)).catch(() => null);
    if (body === null) throw notFound('This file', 'asset_not_found');
    // Names carry a content hash: a changed file is a new name, so browsers may keep these forever.
    return secureHeaders(reply)
      .type(TYPES[extname(name)] ?? 'application/octet-stream')
      .header('cache-control', 'public, max-age=31536000, immutable')
      .send(body);
  });
}
