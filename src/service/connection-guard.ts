// Nobody fills the doors. A connection that holds a slot without asking anything (a socket that
// never sends a whole request, a slowloris trickling one header every few seconds, a TCP connection
// that never starts TLS) is closed after REQUEST_WAIT_MS; on the network listener one address holds
// at most a few connections, so a single host can never take them all; and on this machine's
// listener the last RESERVED slots are kept for the GUI, /admin and health, so a flood of LMSP
// clients cannot lock the person out of their own appliance.
import type { Server } from 'node:http';
import type { Socket } from 'node:net';

/** How long a connection may hold a slot without a whole request: after it opens, and between requests. */
export const REQUEST_WAIT_MS = 5000;
/** Slots of the main listener kept for the GUI, /admin and health. */
export const RESERVED_FOR_ADMIN = 32;

export interface ConnectionGuard {
  /** Connections open now. */
  open(): number;
  /** Whether a request on `path` may use a slot now (see RESERVED_FOR_ADMIN). */
  roomFor(path: string): boolean;
}

/** Paths that stay reachable in the reserved slots: everything but the LMSP API. */
function privileged(path: string): boolean {
  return !path.startsWith('/v1/');
}

/**
 * Closes connections that wait too long for their next request, on `server` (the HTTP server that
 * parses requests: for the network listener, the one the decrypted sockets are handed to).
 */
export function guardConnections(server: Server, options: { maxConnections: number; reserved: number }): ConnectionGuard {
  const waiting = new WeakMap<Socket, NodeJS.Timeout>();
  let open = 0;
  const wait = (socket: Socket): void => {
    clearTimeout(waiting.get(socket));
    const timer = setTimeout(() => socket.destroy(), REQUEST_WAIT_MS);
    timer.unref();
    waiting.set(socket, timer);
  };
  server.on('connection', (socket: Socket) => {
    open += 1;
    wait(socket);
    socket.once('close', () => {
      open -= 1;
      clearTimeout(waiting.get(socket));
    });
  });
  server.on('request', (req, res) => {
    // A whole request's headers arrived: the connection is working until its answer is sent.
    clearTimeout(waiting.get(req.socket));
    res.once('finish', () => {
      if (!req.socket.destroyed) wait(req.socket);
    });
  });
  return {
    open: () => open,
    roomFor: (path) => privileged(path) || open <= options.maxConnections - options.reserved,
  };
}

/**
 * On a listener others can reach (the network listener's raw TCP sockets, before TLS): at most
 * `perAddress` connections from one address; more are closed at once.
 */
export function capPerAddress(onConnection: (listener: (socket: Socket) => void) => void, perAddress: number): void {
  const counts = new Map<string, number>();
  onConnection((socket) => {
    const address = socket.remoteAddress ?? '?';
    const n = counts.get(address) ?? 0;
    if (n >= perAddress) {
      socket.destroy();
      return;
    }
    counts.set(address, n + 1);
    socket.once('close', () => {
      const left = (counts.get(address) ?? 1) - 1;
      if (left <= 0) counts.delete(address);
      else counts.set(address, left);
    });
  });
}
