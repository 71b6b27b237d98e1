// A disk whose flush takes 5 ms (bench/slow-flush/slow-fsync.c, loaded into `sanad serve` with
// LD_PRELOAD): what the store's fsync costs a stream when it is slow. The fsync of the WAL runs
// off the event loop (store/durable-commits.ts), so the engine keeps its pace and only the
// delivery of each batch of events waits for its flush. Needs a C compiler (cc); without one the
// figure is skipped and says why.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { tempDir } from '../test/harness/data-dir.js';

export const SLOW_FLUSH_US = 5000;

/** Builds the shim; the environment that loads it into a service process, or null (no cc). */
export function slowFlushEnv(): Record<string, string> | null {
  const source = new URL('../../bench/slow-flush/slow-fsync.c', import.meta.url).pathname;
  const out = join(tempDir('sanad-bench-slow-flush-'), 'slow-fsync.so');
  const cc = spawnSync('cc', ['-shared', '-fPIC', '-O2', '-o', out, source, '-ldl'], { encoding: 'utf8' });
  if (cc.status !== 0) return null;
  return { LD_PRELOAD: out, SLOW_FSYNC_US: String(SLOW_FLUSH_US) };
}
