// Opening the port, with a sentence a person can act on when it is taken: which port, whether a
// Sanad (on another data dir: one on this data dir is refused earlier by the instance lock) or
// another program holds it, and `--port`.
import { createServer } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { bracketed } from '../service/listener.js';

export class PortInUseError extends Error {
  constructor(host: string, port: number, bySanad: boolean) {
    super(
      `Port ${port} on ${host} is already taken by ${bySanad ? 'another Sanad, serving a different data dir' : 'another program'}; ` +
        `stop it, or start this one on another port with \`--port N\` (\`--port 0\` picks a free one).`,
    );
    this.name = 'PortInUseError';
  }
}

async function answersLikeSanad(host: string, port: number): Promise<boolean> {
  try {
    const res = await fetch(`http://${bracketed(host)}:${port}/health/live`, { signal: AbortSignal.timeout(1000) });
    const body: unknown = await res.json();
    return typeof body === 'object' && body !== null && 'status' in body && body.status === 'live';
  } catch {
    return false;
  }
}

export async function listenOrExplain(app: FastifyInstance, host: string, port: number): Promise<void> {
  try {
    await app.listen({ host, port });
  } catch (err) {
    if (err instanceof Error && 'code' in err && err.code === 'EADDRINUSE') throw new PortInUseError(host, port, await answersLikeSanad(host, port));
    throw err;
  }
}

const LOOPBACK = ['127.0.0.1', 'localhost', '::1', '[::1]'];

export class NotLoopbackError extends Error {
  constructor(host: string) {
    super(
      `Sanad's main listener (the GUI, /admin and its login link) stays on this machine, so it does not serve ${host}: ` +
        'it has no TLS and its session would cross the network in clear text. ' +
        'To let other devices use Sanad, run `sanad serve --lan` (TLS, paired devices, model routes only) and pair them from the GUI.',
    );
    this.name = 'NotLoopbackError';
  }
}

/** The main listener binds loopback only (127.0.0.0/8 counts: it never leaves the machine). */
export function assertLoopbackHost(host: string): void {
  if (LOOPBACK.includes(host.toLowerCase()) || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host)) return;
  throw new NotLoopbackError(host);
}

/**
 * "localhost" is ::1 as often as 127.0.0.1 (a client that resolves it to IPv6 first must reach
 * Sanad too): the IPv6 loopback on the same port hands its connections to the same server. A
 * machine without IPv6 simply has no second listener.
 */
export async function alsoOnIpv6Loopback(app: FastifyInstance, port: number): Promise<(() => Promise<void>) | null> {
  const v6 = createServer((socket) => app.server.emit('connection', socket));
  const listening = await new Promise<boolean>((resolve) => {
    v6.once('error', () => resolve(false));
    v6.listen({ host: '::1', port, ipv6Only: true }, () => resolve(true));
  });
  if (!listening) return null;
  return () => new Promise((resolve) => v6.close(() => resolve()));
}
