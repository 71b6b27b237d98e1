// The bytes of a pull: ipull (the downloader node-llama-cpp uses) fetches the file in chunks with
// Range requests into `<dir>/<name>.ipull`, keeps which chunks are done inside that file, retries a
// cut connection with backoff, and resumes from the done chunks when started again on the same
// partial file (after a failure, a stop or a crash). Once whole, the file is hashed (in a worker)
// and compared with the sha256 it must have; a mismatch deletes it. Renaming it into the models
// folder and registering it is the caller's (jobs/pulls.ts), after this resolves.
import { rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { sha256FileInWorker } from '../../files/hash-file.js';
import { readGgufHeader } from '../gguf-header.js';

export interface PullProgress {
  bytes: number;
  total: number;
  /** Bytes per second, over ipull's recent window. */
  rate: number;
  /** Seconds; null while unknown. */
  eta: number | null;
  phase: 'downloading' | 'verifying';
}

export class DownloadError extends Error {
  constructor(
    message: string,
    readonly code: 'download_failed' | 'checksum_mismatch' | 'not_gguf' | 'size_mismatch',
  ) {
    super(message);
    this.name = 'DownloadError';
  }
}

export interface DownloadInput {
  url: string;
  headers: Record<string, string>;
  /** The pull's own folder; the file is `<dir>/<fileName>` once whole. */
  dir: string;
  fileName: string;
  size: number;
  sha256: string | null;
  signal: AbortSignal;
  onProgress: (p: PullProgress) => void;
  /** ipull's retries of a failed request (async-retry options). */
  retry?: { retries: number; minTimeout: number; maxTimeout: number; factor: number };
  /** Bytes per Range request (resume granularity). */
  chunkSize?: number;
}

/** The default: ~2 minutes of retries (0.5 s doubling to 15 s), then a failure the next pull resumes. */
export const DEFAULT_RETRY = { retries: 10, minTimeout: 500, maxTimeout: 15_000, factor: 2 };

/** Small files in small chunks (a cut costs little), big ones in 8 MiB (fewer requests). */
export function chunkSizeFor(size: number): number {
  return Math.min(8 * 1024 * 1024, Math.max(256 * 1024, Math.ceil(size / 64)));
}

export function partialPath(dir: string, fileName: string): string {
  return join(dir, `${fileName}.ipull`);
}

/** Bytes already on disk for a pull (the partial's size overstates by its chunk table; good enough for room). */
export async function downloadedSoFar(dir: string, fileName: string): Promise<number> {
  const info = await stat(partialPath(dir, fileName)).catch(() => null);
  return info?.isFile() ? info.size : 0;
}

export async function downloadVerified(input: DownloadInput): Promise<{ path: string; sha256: string }> {
  const target = join(input.dir, input.fileName);
  // Loaded here, not at the top: ipull is ~100 modules that only a pull needs, and every command
  // that reaches this file (a restore, for a model kept only at its source) would load them.
  const { downloadFile } = await import('ipull');
  const engine = await downloadFile({
    url: input.url,
    savePath: target,
    headers: input.headers,
    retry: input.retry ?? DEFAULT_RETRY,
    chunkSize: input.chunkSize ?? chunkSizeFor(input.size),
    parallelStreams: 4,
    skipExisting: false,
    cliProgress: false,
  });
  if (engine.downloadSize !== input.size) {
    await engine.close();
    throw new DownloadError(
      `The server now says the file is ${engine.downloadSize} bytes, not the ${input.size} it said before; pull it again.`,
      'size_mismatch',
    );
  }
  engine.on('progress', (s) => {
    input.onProgress({
      bytes: s.transferredBytes,
      total: s.totalBytes,
      rate: s.speed,
      eta: Number.isFinite(s.timeLeft) && s.timeLeft > 0 ? s.timeLeft / 1000 : null,
      phase: 'downloading',
    });
  });
  // A cancel removes the partial folder once this throws: ipull must have stopped writing by then,
  // or its last write would make the folder again after it was removed (CI saw one left behind).
  let closing: Promise<void> = Promise.resolve();
  const onAbort = (): void => {
    closing = engine.close().catch(() => undefined);
  };
  input.signal.addEventListener('abort', onAbort, { once: true });
  try {
    await engine.download();
  } catch (err) {
    if (input.signal.aborted) {
      await closing;
      throw input.signal.reason;
    }
    const why = err instanceof Error ? err.message : String(err);
    throw new DownloadError(`The download stopped after its retries (${why}); what arrived is kept, and pulling again resumes it.`, 'download_failed');
  } finally {
    input.signal.removeEventListener('abort', onAbort);
  }
  if (input.signal.aborted) {
    await closing;
    throw input.signal.reason;
  }
  const whole = await stat(target).catch(() => null);
  if (!whole || whole.size !== input.size) {
    throw new DownloadError(`The download ended with ${whole?.size ?? 0} of ${input.size} bytes; pulling again resumes it.`, 'download_failed');
  }
  input.onProgress({ bytes: input.size, total: input.size, rate: 0, eta: null, phase: 'verifying' });
  const { sha256 } = await sha256FileInWorker(target);
  if (input.sha256 && sha256 !== input.sha256) {
    await rm(target, { force: true });
    throw new DownloadError(
      `The downloaded file's sha256 is ${sha256}, not the ${input.sha256} the hub publishes, so it was deleted and nothing was registered; pull again (a proxy or disk may have damaged it).`,
      'checksum_mismatch',
    );
  }
  try {
    await readGgufHeader(target);
  } catch (err) {
    await rm(target, { force: true });
    throw new DownloadError(`The downloaded file is not a GGUF model (${err instanceof Error ? err.message : String(err)}); it was deleted.`, 'not_gguf');
  }
  return { path: target, sha256 };
}
