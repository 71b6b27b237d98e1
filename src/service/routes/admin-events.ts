// GET /admin/events: the admin event bus (admin-events.ts) as server-sent events, for the GUI's live
// backup, drill, restore and rotation progress; `?run=ID` follows one run (the CLI's `backup now`).
// Admin scope (the GUI's session token, in its header, counts).
// Nothing is replayed: the first frame is `event: ready` (no id), sent once the client is
// subscribed, so a client that reads the status routes after it misses nothing in between.
// Each client may have only a bounded amount of unsent output: one that cannot keep up is
// disconnected (it reconnects and re-reads the status) rather than letting the process grow.
import { principalKey, sessionStreamsKey } from '../auth.js';
import { principalOf } from '../access.js';
import { claimStream, endWith, heartbeatFor } from '../flood-limits.js';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { AdminEvent } from '../../jobs/admin-events.js';
import type { ServiceContext } from '../context.js';
import { secured, type RouteKit } from './route-kit.js';
import { badRequest } from '../errors.js';

/** Unsent bytes one client may hold before it is dropped. */
export const MAX_BUFFERED_BYTES = 1024 * 1024;

export function formatAdminEvent(event: AdminEvent): string {
  return `id: ${event.id}\nevent: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`;
}

export function registerAdminEventRoutes(app: FastifyInstance, kit: RouteKit): void {
  const { ctx } = kit;
  const open = new Set<() => void>();
  // End every stream before the server closes its connections, so clients see a clean end.
  app.addHook('preClose', async () => {
    for (const end of [...open]) end();
  });
  app.get<{ Querystring: { run?: string } }>('/admin/events', { preHandler: secured(kit, 'admin') }, async (req, reply) => {
    // `?run=ID`: only the events of that run (their `run_id`), for a client following one run.
    const run = req.query.run === undefined ? null : Number(req.query.run);
    if (run !== null && !(Number.isSafeInteger(run) && run > 0))
      throw badRequest('run must be the id of a run (a positive whole number), as POST /admin/backups answers it.', 'run');
    // Counted like task streams: one admin client cannot open them without limit either.
    const p = principalOf(req);
    const drop = (): void => void reply.raw.destroy();
    const released = claimStream(ctx, principalKey(p), drop);
    // A GUI session's stream ends when that session signs out (POST /admin/logout).
    const unregister = p.kind === 'session' ? endWith(ctx, sessionStreamsKey(p.token), drop) : () => undefined;
    const release = (): void => {
      unregister();
      released();
    };
    open.add(stream(ctx, reply, open, release, run));
  });
}

/** Takes over the reply; returns the function that ends the stream. */
function stream(ctx: ServiceContext, reply: FastifyReply, open: Set<() => void>, release: () => void, run: number | null): () => void {
  reply.hijack();
  const res = reply.raw;
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache, no-transform',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
  });
  res.flushHeaders();
  let ended = false;
  const end = (drop = false): void => {
    if (ended) return;
    ended = true;
    unsubscribe();
    stopHeartbeat();
    release();
    open.delete(finish);
    if (drop) res.destroy();
    else if (!res.writableEnded) res.end();
  };
  const finish = (): void => end(false);
  const send = (text: string): void => {
    if (ended) return;
    if (res.writableLength + text.length > MAX_BUFFERED_BYTES) {
      ctx.logger.info('admin event stream dropped: the client does not keep up', { buffered: res.writableLength });
      end(true);
      return;
    }
    res.write(text);
  };
  const unsubscribe = ctx.adminEvents.subscribe((event) => {
    if (run === null || ('run_id' in event.data && event.data.run_id === run)) send(formatAdminEvent(event));
  });
  // The heartbeat every stream shares (flood-limits.ts); its writes drop a reader too far behind.
  const stopHeartbeat = heartbeatFor(res);
  res.on('close', finish);
  send(`event: ready\ndata: ${JSON.stringify({ at: ctx.clock.now() })}\n\n`);
  return finish;
}
