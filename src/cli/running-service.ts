// For commands that must not race a running `sanad serve` on the same data dir (one that changes
// secrets the service holds in memory). If no service runs, the command holds the instance lock
// while it works here, so none can start meanwhile; if one runs, the command asks it over its admin
// API with a short-lived admin token (a temporary client in the store, revoked right after and never
// part of a backup), so the change happens in the one process that holds the state.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { systemClock, unixSeconds } from '../clock.js';
import { tryFileLock } from '../store/file-lock.js';
import { createClient, revokeClient } from '../store/clients.js';
import { storePath } from '../store/open.js';
import { CliError } from './cli-error.js';
import { withStore } from './store-access.js';

export interface ServiceAnswer {
  status: number;
  body: unknown;
}

export type AdminCall = (method: 'GET' | 'POST', path: string, body?: unknown) => Promise<ServiceAnswer>;

/** Runs `here` with the instance lock held, or `there` against the running service. */
export async function hereOrInService<T>(dataDir: string, purpose: string, here: () => Promise<T>, there: (call: AdminCall) => Promise<T>): Promise<T> {
  if (!existsSync(storePath(dataDir))) throw new CliError(`There is no Sanad data in ${dataDir}; start \`sanad serve\` on it once first, or pass the right --data-dir.`);
  const lock = tryFileLock(join(dataDir, 'instance.lock'));
  if (lock) {
    try {
      return await here();
    } finally {
      lock.release();
    }
  }
  return withRunningService(dataDir, purpose, there);
}

/** Whether a `sanad serve` holds this data dir right now (its instance lock is taken). */
export function serviceHoldsDataDir(dataDir: string): boolean {
  if (!existsSync(storePath(dataDir))) return false;
  const lock = tryFileLock(join(dataDir, 'instance.lock'));
  if (!lock) return true;
  lock.release();
  return false;
}

/** Calls the running service's admin API with a short-lived admin token, revoked right after. */
export async function withRunningService<T>(dataDir: string, purpose: string, there: (call: AdminCall) => Promise<T>): Promise<T> {
  const url = serviceUrl(dataDir);
  if (url === null) throw new CliError('Another Sanad command or a starting service is using this data dir; try again in a moment.');
  const made = await withStore(dataDir, (db) => createClient(db, `${purpose} (temporary)`, ['admin'], unixSeconds(systemClock), { temporary: true }));
  try {
    return await there(async (method, path, body) => {
      let res: Response;
      try {
        res = await fetch(url + path, {
          method,
          headers: { authorization: `Bearer ${made.token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        });
      } catch (err) {
        throw new CliError(`The running Sanad at ${url} did not answer (${err instanceof Error ? err.message : String(err)}); check that it is up, or stop it and try again.`);
      }
      const text = await res.text();
      return { status: res.status, body: parseJson(text) };
    });
  } finally {
    await withStore(dataDir, (db) => revokeClient(db, made.client.id, unixSeconds(systemClock)));
  }
}

/** The message of a contract error body, or a fallback. */
export function errorMessage(body: unknown, fallback: string): string {
  if (typeof body === 'object' && body !== null && 'error' in body) {
    const error: unknown = body.error;
    if (typeof error === 'object' && error !== null && 'message' in error && typeof error.message === 'string') return error.message;
  }
  return fallback;
}

function serviceUrl(dataDir: string): string | null {
  try {
    const info: unknown = JSON.parse(readFileSync(join(dataDir, 'service.json'), 'utf8'));
    if (typeof info === 'object' && info !== null && 'url' in info && typeof info.url === 'string') return info.url;
  } catch {
    // absent or half-written: the caller says what to do
  }
  return null;
}

function parseJson(text: string): unknown {
  try {
    return text ? JSON.parse(text) : null;
  } catch {
    return null;
  }
}
