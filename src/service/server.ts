// The HTTP service: Fastify with the contract's error shape everywhere, a 1 MiB body limit, and
// the LMSP, admin, health and GUI routes.
import Fastify, { type FastifyInstance } from 'fastify';
import type { ServiceContext } from './context.js';
import { ApiError, installErrorHandlers, badRequest, sendError } from './errors.js';
import { guardConnections, REQUEST_WAIT_MS, RESERVED_FOR_ADMIN } from './connection-guard.js';
import { storeOnSend } from './idempotency.js';
import { installBrowserOrigins } from './browser-origins.js';
import { newId } from '../ids.js';
import { localListener, type ListenerPolicy } from './listener.js';
import { addressBackoff, bothThrottles, sharedBudget } from './pairing-throttle.js';
import { RateLimiter } from './rate-limit.js';
import type { RouteKit } from './routes/route-kit.js';
import { registerTlsRoutes } from './routes/tls.js';
import { registerLanRoutes } from './routes/lan.js';
import { registerModelAdminRoutes } from './routes/model-admin.js';
import { registerAdminRoutes } from './routes/admin.js';
import { registerAdminEventRoutes } from './routes/admin-events.js';
import { registerBackupRoutes } from './routes/backups.js';
import { registerRunRoutes } from './routes/runs.js';
import { registerDiagnosticsRoutes } from './routes/diagnostics.js';
import { registerDrillRoutes } from './routes/drills.js';
import { registerFirstRunRoutes } from './routes/first-run.js';
import { registerGuiRoutes } from './routes/gui.js';
import { registerHealthRoutes } from './routes/health.js';
import { registerMaintenanceRoutes } from './routes/maintenance.js';
import { registerModelRoutes } from './routes/models.js';
import { PAIRING_FAILURES_PER_WINDOW, PAIRING_WINDOW_MS, registerPairRoutes } from './routes/pair.js';
import { registerPassphraseRoutes } from './routes/passphrase.js';
import { registerResponseRoutes } from './routes/responses.js';
import { registerChatCompletionRoutes } from './routes/chat-completions.js';
import { registerMessagesRoutes } from './routes/messages.js';
import { registerEmbeddingRoutes } from './routes/embeddings.js';
import { registerRerankRoutes } from './routes/rerank.js';
import { registerCompletionRoutes } from './routes/completions.js';
import { registerConversationRoutes } from './routes/conversations.js';
import { registerRestoreRoutes } from './routes/restore.js';
import { registerGenerationRoutes } from './routes/generations.js';
import { registerSecretRoutes } from './routes/secrets.js';
import { registerTaskRoutes } from './routes/tasks.js';

export const BODY_LIMIT = 1024 * 1024;
export const MAX_JSON_DEPTH = 64;

/** How deep `value` nests (a scalar is 0), counting no further than `limit + 1`; no recursion. */
export function jsonDepth(value: unknown, limit: number): number {
  let deepest = 0;
  const stack: Array<{ v: unknown; d: number }> = [{ v: value, d: 0 }];
  while (stack.length > 0) {
    const top = stack.pop();
    if (top === undefined || top.v === null || typeof top.v !== 'object') continue;
    const d = top.d + 1;
    if (d > deepest) deepest = d;
    if (d > limit) return d;
    for (const child of Object.values(top.v)) stack.push({ v: child, d });
  }
  return deepest;
}

/** Fastify with the contract's error shape, the body parsers and the answer hooks; no routes. */
function createApp(ctx: ServiceContext, maxConnections: number, reserved: number): FastifyInstance {
  const app = Fastify({
    logger: false,
    // Every answer names its request (x-request-id, as OpenAI's API does; the SDKs show it as
    // request_id), and the log lines of that request carry the same id.
    genReqId: () => newId('req'),
    bodyLimit: BODY_LIMIT,
    return503OnClosing: true,
    forceCloseConnections: true,
    // The Keep-Alive hint clients read says what the connection guard does: idle 5 s, then closed.
    keepAliveTimeout: REQUEST_WAIT_MS,
    // A path that is not a valid URL (a stray %) never reaches a route: answer it in the contract's shape too.
    frameworkErrors: (_error, _req, reply) => {
      void sendError(reply, new ApiError('invalid_url', 'The request path is not a valid URL (an unencoded "%"?); encode it and try again.'));
    },
  });
  // All connections together (a flood of sockets); past it Node refuses new ones. Read at start.
  app.server.maxConnections = maxConnections;
  const guard = guardConnections(app.server, { maxConnections, reserved });
  if (reserved > 0) {
    app.addHook('onRequest', async (req, reply) => {
      if (guard.roomFor(req.url)) return;
      void reply.header('connection', 'close');
      throw new ApiError(
        'connection_limit',
        'Sanad is at its connection limit; the last connections are kept for its own window. Close connections you do not use, or raise max_connections in Settings.',
      );
    });
  }
  app.addHook('onRequest', async (req, reply) => {
    // On the raw answer, so a stream (which takes the reply over) carries it too.
    reply.raw.setHeader('x-request-id', req.id);
  });
  installBrowserOrigins(app, ctx);
  app.decorateRequest('principal', null);
  app.decorateRequest('idempotency', null);

  // An empty body with a JSON content type is an absent body (the OpenAI SDK posts cancels that way).
  app.removeContentTypeParser('application/json');
  // Fastify reads text/plain by default; a JSON API answers any non-JSON body with 415.
  app.removeContentTypeParser('text/plain');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') return done(null, undefined);
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      return done(badRequest('The request body is not valid JSON.', null, 'invalid_json'), undefined);
    }
    // Everything after this walks the body (validation, the idempotency fingerprint): no bomb of nesting.
    if (jsonDepth(value, MAX_JSON_DEPTH) > MAX_JSON_DEPTH)
      return done(badRequest(`The request body is nested more than ${MAX_JSON_DEPTH} levels deep; no Sanad request needs that.`, null, 'too_deep'), undefined);
    done(null, value);
  });

  installErrorHandlers(app, ctx.logger, ctx.disk);
  app.addHook('onSend', async (req, reply, payload) => {
    // Answers hold tasks, tokens, the recovery kit: no cache keeps them (the GUI's hashed assets
    // and pages say their own cache-control).
    if (!reply.hasHeader('cache-control')) void reply.header('cache-control', 'no-store');
    try {
      storeOnSend(ctx, req, reply, payload);
    } catch (err) {
      // The answer itself must still reach the caller (e.g. the 507 of a full disk); a key that
      // could not be released stays `in_progress` until this process ends (idempotency.ts).
      if (!ctx.disk.noteFailure(err)) throw err;
    }
    // The answer leaves only once every commit it may show (its own, and any it read) is on the
    // disk: a 202 is a promise the task survives a power cut (LMSP §11.2).
    try {
      await ctx.durable.settled();
    } catch (err) {
      ctx.logger.error('the store could not be made durable', { error: String(err) });
      void reply.code(503).header('content-type', 'application/json; charset=utf-8');
      return JSON.stringify(new ApiError('store_not_durable', err instanceof Error ? err.message : String(err)).toBody());
    }
    return payload;
  });
  app.addHook('onResponse', async (req, reply) => {
    ctx.logger.debug('request', { request_id: req.id, method: req.method, url: req.routeOptions.url, status: reply.statusCode });
  });

  return app;
}

/** The main listener, on this machine: everything (LMSP, /admin, health, the GUI). */
export function buildServer(ctx: ServiceContext): FastifyInstance {
  const app = createApp(ctx, ctx.settings().max_connections, RESERVED_FOR_ADMIN);
  const kit: RouteKit = {
    ctx,
    listener: localListener(ctx),
    limiter: new RateLimiter(ctx.clock, 60_000),
    requestsPerMinute: () => ctx.settings().requests_per_minute_per_client,
    pairing: sharedBudget(ctx.clock, PAIRING_FAILURES_PER_WINDOW, PAIRING_WINDOW_MS),
  };
  registerHealthRoutes(app, kit);
  registerTlsRoutes(app, kit);
  registerPairRoutes(app, kit);
  registerModelRoutes(app, kit);
  registerResponseRoutes(app, kit);
  registerChatCompletionRoutes(app, kit);
  registerMessagesRoutes(app, kit);
  registerEmbeddingRoutes(app, kit);
  registerRerankRoutes(app, kit);
  registerCompletionRoutes(app, kit);
  registerConversationRoutes(app, kit);
  registerTaskRoutes(app, kit);
  registerAdminRoutes(app, kit);
  registerModelAdminRoutes(app, kit);
  registerLanRoutes(app, kit);
  registerSecretRoutes(app, kit);
  registerBackupRoutes(app, kit);
  registerRunRoutes(app, kit);
  registerPassphraseRoutes(app, kit);
  registerAdminEventRoutes(app, kit);
  registerRestoreRoutes(app, kit);
  registerGenerationRoutes(app, kit);
  registerDrillRoutes(app, kit);
  registerMaintenanceRoutes(app, kit);
  registerDiagnosticsRoutes(app, kit);
  registerFirstRunRoutes(app, kit);
  registerGuiRoutes(app, kit);
  return app;
}

/** Requests a minute one device may make on the network listener, at most (the setting may be lower). */
export const LAN_REQUESTS_PER_MINUTE = 300;
/** Connections the network listener holds at most, all devices together. */
export const LAN_MAX_CONNECTIONS = 128;
/** Connections one address may hold on the network listener: no single host takes them all. */
export const LAN_CONNECTIONS_PER_ADDRESS = 16;

/** The network listener's app: only what a paired device needs (pairing, the certificate, models,
 *  responses, chat completions, messages, tasks and their events); /admin, /login, health and the GUI are not there (404). TLS
 *  is the caller's (appliance/lan/): this app gets the decrypted connections. */
export function buildLanServer(ctx: ServiceContext, listener: ListenerPolicy): FastifyInstance {
  const app = createApp(ctx, LAN_MAX_CONNECTIONS, 0);
  const kit: RouteKit = {
    ctx,
    listener,
    limiter: new RateLimiter(ctx.clock, 60_000),
    requestsPerMinute: () => Math.min(LAN_REQUESTS_PER_MINUTE, ctx.settings().requests_per_minute_per_client),
    // Its own budgets: a guessing device never slows the desktop's pairing (nor the GUI, which does not pair).
    pairing: bothThrottles(addressBackoff(ctx.clock), sharedBudget(ctx.clock, PAIRING_FAILURES_PER_WINDOW, PAIRING_WINDOW_MS)),
  };
  registerTlsRoutes(app, kit);
  registerPairRoutes(app, kit);
  registerModelRoutes(app, kit);
  registerResponseRoutes(app, kit);
  registerChatCompletionRoutes(app, kit);
  registerMessagesRoutes(app, kit);
  registerEmbeddingRoutes(app, kit);
  registerRerankRoutes(app, kit);
  registerCompletionRoutes(app, kit);
  registerConversationRoutes(app, kit);
  registerTaskRoutes(app, kit);
  return app;
}
