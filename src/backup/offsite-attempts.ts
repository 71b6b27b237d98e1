// An offsite repository that dies mid-upload (the server killed, the link gone) must never hang a
// backup: restic keeps retrying a dead backend on its own for minutes. Each attempt here has a
// stall watchdog (no progress for `stallMs` → SIGINT, so restic drops its lock when it can), an
// unreachable or stalled attempt is tried again a bounded number of times with a growing wait,
// and then the ordinary offsite failure path (alert, exit 3) takes over.
import { ResticError, type BackupProgress } from '../repository/restic/index.js';

export interface OffsiteRetry {
  /** No progress for this long ends an attempt. */
  stallMs: number;
  /** Attempts after the first. */
  retries: number;
  /** Wait before the first retry; each later one waits four times as long. */
  backoffMs: number;
}

export const DEFAULT_OFFSITE_RETRY: OffsiteRetry = { stallMs: 300_000, retries: 2, backoffMs: 15_000 };

export class OffsiteStalledError extends Error {
  constructor(repo: string, stallMs: number, tries: number) {
    super(
      `The repository "${repo}" stopped answering during the upload (no progress for ${Math.round(stallMs / 1000)} s, ${tries} ${tries === 1 ? 'try' : 'tries'}); the next backup tries it again.`,
    );
    this.name = 'OffsiteStalledError';
  }
}

export type Attempt<T> = (signal: AbortSignal, onProgress: (p: BackupProgress) => void) => Promise<T>;

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}

/** One attempt with the watchdog; a stall ends it as OffsiteStalledError. */
async function watched<T>(
  repo: string,
  retry: OffsiteRetry,
  tries: number,
  outer: AbortSignal | undefined,
  attempt: Attempt<T>,
  onProgress: (p: BackupProgress) => void,
): Promise<T> {
  const stall = new AbortController();
  let last = '';
  let timer = setTimeout(() => stall.abort(), retry.stallMs);
  const progress = (p: BackupProgress): void => {
    const now = `${p.files_done}/${p.bytes_done}`;
    if (now !== last) {
      last = now;
      clearTimeout(timer);
      timer = setTimeout(() => stall.abort(), retry.stallMs);
    }
    onProgress(p);
  };
  try {
    return await attempt(outer ? AbortSignal.any([outer, stall.signal]) : stall.signal, progress);
  } catch (err) {
    if (stall.signal.aborted && !outer?.aborted) throw new OffsiteStalledError(repo, retry.stallMs, tries);
    throw err;
  } finally {
    clearTimeout(timer);
  }
}

const retryable = (err: unknown): boolean => err instanceof OffsiteStalledError || (err instanceof ResticError && err.kind === 'unreachable');

export async function withOffsiteRetries<T>(
  repo: string,
  retry: OffsiteRetry,
  outer: AbortSignal | undefined,
  attempt: Attempt<T>,
  onProgress: (p: BackupProgress) => void,
  onRetry?: (err: unknown, waitMs: number) => void,
): Promise<T> {
  for (let i = 0; ; i++) {
    try {
      return await watched(repo, retry, i + 1, outer, attempt, onProgress);
    } catch (err) {
      if (i >= retry.retries || !retryable(err) || outer?.aborted) throw err;
      const wait = retry.backoffMs * 4 ** i;
      onRetry?.(err, wait);
      await sleep(wait, outer);
      if (outer?.aborted) throw err;
    }
  }
}
