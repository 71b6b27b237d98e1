// The generations a running service has opened to look inside (history/): each read out of its
// repository as an `inspect` job of the owner (jobs.ts; one at a time, never during maintenance),
// its progress on GET /admin/events as generation.progress, and kept open for a while so paging,
// searching and comparing do not download it again. An idle copy is closed and its scratch folder
// removed after IDLE_MS; at most MAX_OPEN stay open; stop() removes them all.
import { createRestic } from '../repository/restic/index.js';
import type { Clock } from '../clock.js';
import type { InspectProgress } from '../contract/history.js';
import { openGenerationCopy, type OpenedGeneration } from '../history/generation-copy.js';
import type { Logger } from '../log/logger.js';
import { openRepository, type RepositorySource } from '../restore/open-repository.js';
import type { AdminEvents } from './admin-events.js';
import type { Jobs } from './jobs.js';
import { resticCacheDir } from '../files/data-dir-layout.js';

export const IDLE_MS = 10 * 60_000;
export const MAX_OPEN = 3;

export class GenerationNotFoundError extends Error {
  constructor(generation: number, repo: string) {
    super(`Generation ${generation} is not in the repository "${repo}"; \`sanad restore --list --repo ${repo}\` shows the ones there.`);
    this.name = 'GenerationNotFoundError';
  }
}

/** Where a read in flight puts its progress. */
class Reading {
  progress: InspectProgress | null = null;
}

interface Entry {
  key: string;
  opened: Promise<OpenedGeneration>;
  lastUsed: number;
  reading: Reading;
}

export interface GenerationViewsDeps {
  dataDir: string;
  jobs: Jobs;
  events: AdminEvents;
  clock: Clock;
  logger: Logger;
  /** Where a repository named in this data dir is read from (its row, credentials, passphrase). */
  source(repo: string): Promise<RepositorySource>;
}

export class GenerationViews {
  private readonly entries = new Map<string, Entry>();
  /** One inspect job at a time: the next waits for the one before (the table refuses two). */
  private queue: Promise<unknown> = Promise.resolve();
  private readonly timer: NodeJS.Timeout;
  private stopped = false;

  constructor(private readonly deps: GenerationViewsDeps) {
    this.timer = setInterval(() => void this.sweep(), 60_000);
    this.timer.unref();
  }

  /** The progress of a generation being read (null once it is open, or when nobody asked). */
  progress(repo: string, generation: number): InspectProgress | null {
    return this.entries.get(`${repo}\u0000${generation}`)?.reading.progress ?? null;
  }

  /** The generation's opened copy: from the cache, or read now (as an inspect job). */
  async open(repo: string, generation: number): Promise<OpenedGeneration> {
    if (this.stopped) throw new Error('Sanad is stopping; look inside the generation after it starts again.');
    const key = `${repo}\u0000${generation}`;
    const found = this.entries.get(key);
    if (found) {
      found.lastUsed = this.deps.clock.now();
      return found.opened;
    }
    const reading = new Reading();
    const entry: Entry = { key, lastUsed: this.deps.clock.now(), reading, opened: this.read(reading, repo, generation) };
    this.entries.set(key, entry);
    // A failed read is not cached: the next ask tries again.
    entry.opened.catch(() => this.entries.delete(key));
    await this.evictBeyond(MAX_OPEN);
    return entry.opened;
  }

  private read(reading: Reading, repo: string, generation: number): Promise<OpenedGeneration> {
    const run = this.queue.then(async () => {
      const source = await this.deps.source(repo);
      const job = this.deps.jobs.start<OpenedGeneration, InspectProgress>('inspect', async (control) => {
        const restic = createRestic({ binary: source.binary, cacheDir: resticCacheDir(this.deps.dataDir), logger: this.deps.logger, noLock: true });
        const { repo: resticRepo, generations } = await openRepository(restic, source, control.signal);
        const g = generations.find((x) => x.generation === generation);
        if (!g) throw new GenerationNotFoundError(generation, repo);
        return openGenerationCopy({
          restic,
          repo: resticRepo,
          g,
          dataDir: this.deps.dataDir,
          signal: control.signal,
          onProgress: (p) => {
            reading.progress = p;
            control.progress(p);
            this.deps.events.publish('generation.progress', { repo, generation, ...p });
          },
        });
      });
      const opened = await job.done;
      reading.progress = null;
      this.deps.logger.info('generation opened to look inside', { repo, generation, scratch: opened.scratch });
      return opened;
    });
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async evictBeyond(max: number): Promise<void> {
    if (this.entries.size <= max) return;
    const oldest = [...this.entries.values()].sort((a, b) => a.lastUsed - b.lastUsed).slice(0, this.entries.size - max);
    for (const e of oldest) await this.drop(e);
  }

  private async drop(e: Entry): Promise<void> {
    this.entries.delete(e.key);
    const opened = await e.opened.catch(() => null);
    await opened
      ?.close()
      .catch((err: unknown) =>
        this.deps.logger.warn('could not remove a generation scratch folder', { error: err instanceof Error ? err.message : String(err) }),
      );
  }

  /** Closes the copies nobody used for IDLE_MS. */
  async sweep(): Promise<number> {
    const now = this.deps.clock.now();
    const idle = [...this.entries.values()].filter((e) => now - e.lastUsed >= IDLE_MS && e.reading.progress === null);
    for (const e of idle) await this.drop(e);
    return idle.length;
  }

  /** Closes every copy (the jobs owner aborts a read in flight). */
  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    for (const e of [...this.entries.values()]) await this.drop(e);
  }
}
