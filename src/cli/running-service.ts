// For commands that must not race a running `sanad serve` on the same data dir (one that changes
// secrets the service holds in memory). If no service runs, the command holds the instance lock
// while it works here, so none can start meanwhile; if one runs, the command asks it over its admin
// API with a short-lived admin token (a temporary client in the store, revoked right after and never
// part of a backup), so the change happens in the one process that holds the state.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { existsSync } from 'node:fs';
import { systemClock, unixSeconds } from '../clock.js';
import { tryFileLock } from '../store/file-lock.js';
import { createClient, revokeClient } from '../store/clients.js';
import { proofFor, readServiceFile, removeServiceFile, type ServiceInfo } from '../store/service-file.js';
import { CliError } from './cli-error.js';
import { withStore } from './store-access.js';
import { instanceLockPath, storePath } from '../files/data-dir-layout.js';

export interface ServiceAnswer {
  status: number;
  body: unknown;
}

/** `timeoutMs`: how long this call may take (REQUEST_TIMEOUT_MS when not said). */
export type AdminCall = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, body?: unknown, timeoutMs?: number) => Promise<ServiceAnswer>;

/** One server-sent event of GET /admin/events: its type and its parsed `data`. */
export interface StreamedEvent {
  type: string;
  data: unknown;
}

/**
 * Reads GET `path` (an event stream) until `onEvent` answers true or the stream ends; `onEvent` is
 * awaited, so it may ask the service (read a run once the stream says `ready`).
 */
export type AdminStream = (path: string, onEvent: (event: StreamedEvent) => Promise<boolean> | boolean) => Promise<void>;

/** Runs `here` with the instance lock held, or `there` against the running service. */
export async function hereOrInService<T>(dataDir: string, purpose: string, here: () => Promise<T>, there: (call: AdminCall) => Promise<T>): Promise<T> {
  if (!existsSync(storePath(dataDir)))
    throw new CliError(`There is no Sanad data in ${dataDir}; start \`sanad serve\` on it once first, or pass the right --data-dir.`);
  const lock = tryFileLock(instanceLockPath(dataDir));
  if (lock) {
    try {
      return await here();
    } finally {
      lock.release();
    }
  }
  return withRunningService(dataDir, purpose, there);
}

/**
 * Whether a `sanad serve` holds this data dir right now (its instance lock is taken). When none
 * does, a service.json left by one that was killed is stale: it is removed, so nothing reads its
 * address again (another program may have that port by now).
 */
export function serviceHoldsDataDir(dataDir: string): boolean {
  if (!existsSync(storePath(dataDir))) return false;
  const lock = tryFileLock(instanceLockPath(dataDir));
  if (!lock) return true;
  try {
    removeServiceFile(dataDir);
  } finally {
    lock.release();
  }
  return false;
}

/** How long the CLI waits for the service to prove itself, and for an ordinary request. */
const PROOF_TIMEOUT_MS = 5000;
export const REQUEST_TIMEOUT_MS = 120_000;
/** For a call that reads a generation from its repository or rotates keys in every repository: minutes. */
export const LONG_REQUEST_MS = 30 * 60_000;

/**
 * Whoever answers at the recorded address must prove it is the service that wrote service.json:
 * it answers a fresh nonce with the HMAC under the proof key in that file (0600, the data dir's
 * owner's). A program that took the port of a service that died cannot, and gets no token.
 */
async function proveService(dataDir: string, info: ServiceInfo): Promise<void> {
  const nonce = randomBytes(16).toString('hex');
  let proof: unknown = null;
  try {
    const res = await fetch(`${info.url}/health/proof?nonce=${nonce}`, { signal: AbortSignal.timeout(PROOF_TIMEOUT_MS) });
    const body: unknown = parseJson(await res.text());
    proof = typeof body === 'object' && body !== null && 'proof' in body ? body.proof : null;
  } catch {
    proof = null;
  }
  const expected = Buffer.from(proofFor(Buffer.from(info.proof_key, 'hex'), nonce));
  const given = Buffer.from(typeof proof === 'string' ? proof : '');
  if (given.length === expected.length && timingSafeEqual(given, expected)) return;
  // The record is stale when no service holds the data dir: remove it, so the next command knows.
  const stale = !serviceHoldsDataDir(dataDir);
  throw new CliError(
    stale
      ? `No Sanad is running on ${dataDir}: its record (service.json) named ${info.url}, where something else answers or nothing does. The stale record was removed and no token was sent; start Sanad with \`sanad serve\`.`
      : `What answers at ${info.url} could not prove it is the Sanad running on ${dataDir}, so no token was sent to it. Stop whatever else listens on port ${info.port}, then restart Sanad.`,
  );
}

/** Calls the running service's admin API with a short-lived admin token, revoked right after. */
export async function withRunningService<T>(dataDir: string, purpose: string, there: (call: AdminCall, stream: AdminStream) => Promise<T>): Promise<T> {
  const info = readServiceFile(dataDir);
  if (info === null) throw new CliError('Another Sanad command or a starting service is using this data dir; try again in a moment.');
  await proveService(dataDir, info);
  const url = info.url;
  const made = await withStore(dataDir, (db) => createClient(db, `${purpose} (temporary)`, ['admin'], unixSeconds(systemClock), { temporary: true }));
  const stream: AdminStream = (path, onEvent) => followEvents(url + path, made.token, onEvent);
  try {
    return await there(async (method, path, body, timeoutMs = REQUEST_TIMEOUT_MS) => {
      const ask = (): Promise<Response> =>
        fetch(url + path, {
          method,
          headers: { authorization: `Bearer ${made.token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
          signal: AbortSignal.timeout(timeoutMs),
        });
      let res: Response;
      try {
        // A kept-alive connection the service closed just as it was reused fails at once ("fetch
        // failed", a socket closed): a GET changes nothing, so it is asked again on a new one.
        res = await ask().catch((err: unknown) => {
          if (method === 'GET' && !isTimeout(err)) return ask();
          throw err;
        });
      } catch (err) {
        if (isTimeout(err))
          throw new CliError(
            `The running Sanad at ${url} did not answer within ${Math.round(timeoutMs / 1000)} s; check that it is not stuck (\`sanad doctor\`), or stop it and try again.`,
          );
        throw new CliError(`The running Sanad at ${url} did not answer (${networkReason(err)}); check that it is up, or stop it and try again.`);
      }
      const text = await res.text();
      return { status: res.status, body: parseJson(text) };
    }, stream);
  } finally {
    await withStore(dataDir, (db) => revokeClient(db, made.client.id, unixSeconds(systemClock)));
  }
}

const isTimeout = (err: unknown): boolean => err instanceof Error && err.name === 'TimeoutError';

/** fetch's own "fetch failed" with the reason under it (a refused or closed connection). */
function networkReason(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const cause: unknown = err.cause;
  return cause instanceof Error ? `${err.message}: ${cause.message}` : err.message;
}

/** The message of a contract error body, or a fallback. */
export function errorMessage(body: unknown, fallback: string): string {
  if (typeof body === 'object' && body !== null && 'error' in body) {
    const error: unknown = body.error;
    if (typeof error === 'object' && error !== null && 'message' in error && typeof error.message === 'string') return error.message;
  }
  return fallback;
}

function parseJson(text: string): unknown {
  try {
    return text ? JSON.parse(text) : null;
  } catch {
    return null;
  }
}

/** The SSE frames of one GET, parsed, until `onEvent` is satisfied; the service's own heartbeat keeps it open. */
async function followEvents(url: string, token: string, onEvent: (event: StreamedEvent) => Promise<boolean> | boolean): Promise<void> {
  const stop = new AbortController();
  let res: Response;
  try {
    res = await fetch(url, { headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' }, signal: stop.signal });
  } catch (err) {
    throw new CliError(`The running Sanad did not answer its event stream (${networkReason(err)}); check that it is up, or stop it and try again.`);
  }
  if (res.status !== 200 || !res.body)
    throw new CliError(errorMessage(parseJson(await res.text()), `The running Sanad answered ${res.status} to its event stream.`));
  const decoder = new TextDecoder();
  let buffer = '';
  try {
    const reader = res.body.getReader();
    for (;;) {
      const read: { done: boolean; value?: unknown } = await reader.read();
      if (read.done) break;
      if (read.value instanceof Uint8Array) buffer += decoder.decode(read.value, { stream: true });
      let end: number;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const frame = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        // A comment (the service's heartbeat, every 15 s) is passed on as a tick.
        const type = /^event: (.*)$/m.exec(frame)?.[1] ?? (frame.startsWith(':') ? 'heartbeat' : undefined);
        if (type === undefined) continue;
        const data = /^data: (.*)$/m.exec(frame)?.[1];
        if (await onEvent({ type, data: data === undefined ? null : parseJson(data) })) return;
      }
    }
  } finally {
    stop.abort();
  }
  throw new CliError('The running Sanad ended its event stream before the run ended (it stopped?); see its log or the GUI, then try again.');
}
