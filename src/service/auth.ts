// Who is calling, and may they. A `/v1` caller presents `Authorization: Bearer <token>`; the GUI
// presents its session token in `X-Sanad-Session` (login-codes.ts: never a cookie, which the
// browser would hand to other local ports), which counts as `admin` but only together with a
// matching Host and Origin, so neither a web page nor a DNS-rebinding trick can drive the
// appliance through the user's browser.
import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { findClientByToken, touchClient, type Client, type Scope } from '../store/clients.js';
import { unixSeconds } from '../clock.js';
import type { ServiceContext } from './context.js';
import { ApiError } from './errors.js';
import type { ListenerPolicy } from './listener.js';
import type { RateLimiter } from './rate-limit.js';
import { allowedOrigin } from './browser-origins.js';

/** `session`: the GUI, signed in with the session token `token` (its streams end at sign-out). */
export type Principal = { kind: 'client'; client: Client } | { kind: 'session'; token: string };

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

/** What a sign-out ends: the open streams of that one GUI session (flood-limits.ts endStreamsOf). */
export function sessionStreamsKey(token: string): string {
  return `session:${createHash('sha256').update(token).digest('hex')}`;
}

/** The key that scopes idempotency keys and rate limits to one caller. */
export function principalKey(p: Principal): string {
  return p.kind === 'session' ? 'session' : p.client.id;
}

export function clientIdOf(p: Principal): string | null {
  return p.kind === 'client' ? p.client.id : null;
}

/** The token: \`Authorization: Bearer\`, or \`x-api-key\` (Anthropic's SDKs, and tools that send only it). */
function bearer(req: FastifyRequest): string | null {
  const h = req.headers.authorization;
  if (typeof h === 'string') return /^Bearer\s+(\S+)\s*$/i.exec(h)?.[1] ?? null;
  const key = req.headers['x-api-key'];
  return typeof key === 'string' && /^\S+$/.test(key.trim()) ? key.trim() : null;
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

/** Rejects requests whose Host (and Origin, when sent) is not one of this listener's own names. */
export function checkHostAndOrigin(listener: ListenerPolicy, req: FastifyRequest, allowed: string | null = null): void {
  const host = (req.headers.host ?? '').toLowerCase();
  if (!listener.hosts().includes(host)) {
    throw new ApiError('forbidden_host', `This request names a host other than the Sanad service; ${listener.hostHint}.`);
  }
  const origin = req.headers.origin;
  if (origin !== undefined && origin !== allowed && !listener.origins().includes(origin.toLowerCase())) {
    throw new ApiError(
      'forbidden_origin',
      `Requests from the web page ${origin} are not allowed; to let a browser app use the models, add its origin to "Allowed browser origins" in Settings.`,
    );
  }
}

/** The caller's address without the IPv4-in-IPv6 prefix (what the Clients screen shows). */
export function remoteAddress(req: Pick<FastifyRequest, 'socket'>): string | null {
  const a = req.socket.remoteAddress;
  if (a === undefined) return null;
  return a.startsWith('::ffff:') ? a.slice(7) : a;
}

/** Identifies the caller or throws 401. */
export function authenticate(ctx: ServiceContext, listener: ListenerPolicy, req: FastifyRequest): Principal {
  checkHostAndOrigin(listener, req, allowedOrigin(ctx, req));
  const token = bearer(req);
  if (token) {
    const client = findClientByToken(ctx.db, token, unixSeconds(ctx.clock));
    if (!client) throw new ApiError('invalid_api_key', 'The API key is unknown or was revoked; pair again or ask for a new token.');
    try {
      touchClient(ctx.writer, client, unixSeconds(ctx.clock), remoteAddress(req));
    } catch (err) {
      // "Last used" is a courtesy: a full disk must not turn every read into an error.
      if (!ctx.disk.noteFailure(err)) throw err;
    }
    return { kind: 'client', client };
  }
  const session = sessionToken(req);
  // The GUI's session belongs to this machine: on the network listener it is no credential at all.
  if (session !== null && listener.kind === 'local') {
    if (ctx.login.isSession(session)) return { kind: 'session', token: session };
    throw new ApiError('session_expired', 'This window is no longer signed in (signed out, idle for 12 hours, or Sanad restarted); open a new login link.');
  }
  throw new ApiError('invalid_api_key', 'No API key was given; send Authorization: Bearer <token> (or x-api-key: <token>).');
}

export interface GuardKit {
  ctx: ServiceContext;
  listener: ListenerPolicy;
  limiter: RateLimiter;
  /** Requests a minute one client may make on this listener. */
  requestsPerMinute: () => number;
}

/** A preHandler: authenticate, require `scope`, and count the call against the caller's rate. */
export function guard(kit: GuardKit, scope: Scope | Scope[]) {
  const { ctx, listener, limiter } = kit;
  const needed = Array.isArray(scope) ? scope : [scope];
  return async (req: FastifyRequest, _reply: FastifyReply): Promise<void> => {
    const principal = authenticate(ctx, listener, req);
    if (!needed.some((s) => hasScope(principal, s))) {
      throw new ApiError('insufficient_scope', `This token lacks the scope this needs (${needed.join(' or ')}).`);
    }
    req.principal = principal;
    if (principal.kind === 'client') limiter.hit(principal.client.id, kit.requestsPerMinute());
  };
}
