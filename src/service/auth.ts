// Who is calling, and may they. A `/v1` caller presents `Authorization: Bearer <token>`; the GUI
// presents its session token in `X-Sanad-Session` (login-codes.ts: never a cookie, which the
// browser would hand to other local ports), which counts as `admin` but only together with a
// matching Host and Origin, so neither a web page nor a DNS-rebinding trick can drive the
// appliance through the user's browser.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { findClientByToken, touchClient, type Client, type Scope } from '../store/clients.js';
import { unixSeconds } from '../clock.js';
import type { ServiceContext } from './context.js';
import { ApiError } from './errors.js';
import { RateLimiter } from './rate-limit.js';

export type Principal = { kind: 'client'; client: Client } | { kind: 'session' };

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal | null;
  }
}

/** The GUI session's header (lower case, as Node gives header names). */
export const SESSION_HEADER = 'x-sanad-session';

export function sessionToken(req: Pick<FastifyRequest, 'headers'>): string | null {
  const v = req.headers[SESSION_HEADER];
  return typeof v === 'string' && v !== '' ? v : null;
}

export function hasScope(p: Principal, scope: Scope): boolean {
  if (p.kind === 'session') return true;
  return p.client.scopes.includes('admin') || p.client.scopes.includes(scope);
}

/** The key that scopes idempotency keys and rate limits to one caller. */
export function principalKey(p: Principal): string {
  return p.kind === 'session' ? 'session' : p.client.id;
}

export function clientIdOf(p: Principal): string | null {
  return p.kind === 'client' ? p.client.id : null;
}

function bearer(req: FastifyRequest): string | null {
  const h = req.headers.authorization;
  if (typeof h !== 'string') return null;
  const m = /^Bearer\s+(\S+)\s*$/i.exec(h);
  return m?.[1] ?? null;
}

/** One cookie's value from a request's Cookie header (the GUI session, the recovery screen's). */
export function cookie(req: Pick<FastifyRequest, 'headers'>, name: string): string | null {
  const raw = req.headers.cookie;
  if (typeof raw !== 'string') return null;
  for (const part of raw.split(';')) {
    const [k, ...v] = part.trim().split('=');
    if (k === name) return v.join('=');
  }
  return null;
}

const LOOPBACK_NAMES = ['127.0.0.1', 'localhost', '[::1]'];
const WILDCARDS = ['0.0.0.0', '::', '[::]'];

/** The host names a request may give: the loopback names, the address Sanad is bound to (unless a
 *  wildcard), and those named in SANAD_ALLOWED_HOSTS (comma-separated). Never "anything". */
export function allowedHostNames(host: string, env: NodeJS.ProcessEnv = process.env): string[] {
  const bound = host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
  const extra = (env.SANAD_ALLOWED_HOSTS ?? '').split(',').map((h) => h.trim().toLowerCase()).filter((h) => h !== '');
  return [...new Set([...LOOPBACK_NAMES, ...(WILDCARDS.includes(host) ? [] : [bound.toLowerCase()]), ...extra])];
}

/** Rejects requests whose Host (and Origin, when sent) is not one of this service's own names. */
export function checkHostAndOrigin(ctx: ServiceContext, req: FastifyRequest): void {
  const allowed = allowedHostNames(ctx.address.host).map((n) => `${n}:${ctx.address.port}`);
  const host = (req.headers.host ?? '').toLowerCase();
  if (!allowed.includes(host)) {
    throw new ApiError(403, 'permission_error', 'forbidden_host', 'This request names a host other than the Sanad service; use http://127.0.0.1 with its port (or a name listed in SANAD_ALLOWED_HOSTS).');
  }
  const origin = req.headers.origin;
  if (origin !== undefined && !allowed.some((a) => origin.toLowerCase() === `http://${a}`)) {
    throw new ApiError(403, 'permission_error', 'forbidden_origin', 'Requests from other web pages are not allowed.');
  }
}

/** Identifies the caller or throws 401. */
export function authenticate(ctx: ServiceContext, req: FastifyRequest): Principal {
  checkHostAndOrigin(ctx, req);
  const token = bearer(req);
  if (token) {
    const client = findClientByToken(ctx.db, token, unixSeconds(ctx.clock));
    if (!client) throw new ApiError(401, 'authentication_error', 'invalid_api_key', 'The API key is unknown or was revoked; pair again or ask for a new token.');
    try {
      touchClient(ctx.writer, client, unixSeconds(ctx.clock));
    } catch (err) {
      // "Last used" is a courtesy: a full disk must not turn every read into an error.
      if (!ctx.disk.noteFailure(err)) throw err;
    }
    return { kind: 'client', client };
  }
  const session = sessionToken(req);
  if (session !== null) {
    if (ctx.login.isSession(session)) return { kind: 'session' };
    throw new ApiError(401, 'authentication_error', 'session_expired', 'This window is no longer signed in (signed out, idle for 12 hours, or Sanad restarted); open a new login link.');
  }
  throw new ApiError(401, 'authentication_error', 'invalid_api_key', 'No API key was given; send Authorization: Bearer <token>.');
}

/** A preHandler: authenticate, require `scope`, and count the call against the caller's rate. */
export function guard(ctx: ServiceContext, limiter: RateLimiter, scope: Scope | Scope[]) {
  const needed = Array.isArray(scope) ? scope : [scope];
  return async (req: FastifyRequest, _reply: FastifyReply): Promise<void> => {
    const principal = authenticate(ctx, req);
    if (!needed.some((s) => hasScope(principal, s))) {
      throw new ApiError(403, 'permission_error', 'insufficient_scope', `This token lacks the scope this needs (${needed.join(' or ')}).`);
    }
    req.principal = principal;
    if (principal.kind === 'client') limiter.hit(principal.client.id, ctx.settings().requests_per_minute_per_client);
  };
}
