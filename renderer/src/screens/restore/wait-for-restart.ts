// After "open the restored data" the service stops and starts again on the restored folder, and the
// event stream dies with the old instance: no event can say "it is back", so this waits by asking.
// The old instance always accepts this page's session; the new one never does (it has its own
// sessions), so the first 401 means the new instance is serving and its login link will work.
// Bounded: it gives up after `timeoutMs` and the screen says what to do.
import { ApiError } from '../../api/http';

export type ProbeAnswer = 'old' | 'new' | 'down';

/** Asks the service once: still the old instance, the new one, or nobody (restarting). */
export async function probe(ask: () => Promise<unknown>): Promise<ProbeAnswer> {
  try {
    await ask();
    return 'old';
  } catch (error) {
    return error instanceof ApiError && error.status === 401 ? 'new' : 'down';
  }
}

export interface WaitOptions {
  intervalMs?: number;
  timeoutMs?: number;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
  signal?: AbortSignal;
}

/** Resolves true once the new instance answers, false on timeout or abort. */
export async function waitForRestart(ask: () => Promise<ProbeAnswer>, options: WaitOptions = {}): Promise<boolean> {
  const { intervalMs = 300, timeoutMs = 90_000, now = Date.now, sleep = (ms) => new Promise<void>((r) => setTimeout(r, ms)) } = options;
  const deadline = now() + timeoutMs;
  while (!options.signal?.aborted) {
    if ((await ask()) === 'new') return true;
    if (now() >= deadline) return false;
    await sleep(intervalMs);
  }
  return false;
}

/** The login link on this page's own origin (the service may name itself 127.0.0.1 while the
 *  browser uses localhost), landing back on the Restore screen. */
export function loginPath(loginUrl: string, hash = '#/restore'): string {
  const url = new URL(loginUrl, 'http://placeholder.invalid');
  return `${url.pathname}${url.search}${hash}`;
}
