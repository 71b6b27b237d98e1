// Restores started from the GUI: one at a time, kept in memory (a restore writes only its own
// target, so nothing about it needs to survive a restart), progress and the end published on the
// admin event bus. Closing the service cancels a running restore, which then puts its target back.
import { randomBytes } from 'node:crypto';
import type { RestoreResult } from '../restore/restore-generation.js';
import type { RestoreProgress } from '../restore/restore-progress.js';
import type { AdminEvents } from './admin-events.js';

export interface RestoreJob {
  id: string;
  status: 'running' | 'succeeded' | 'failed';
  target: string;
  repo: string;
  /** Unix ms. */
  started_at: number;
  finished_at: number | null;
  progress: RestoreProgress | null;
  result: RestoreResult | null;
}

export type RestoreRun = (onProgress: (p: RestoreProgress) => void, signal: AbortSignal) => Promise<RestoreResult>;

const KEEP_FINISHED = 20;

export class RestoreJobs {
  private readonly jobs = new Map<string, RestoreJob>();
  private current: { job: RestoreJob; abort: AbortController; done: Promise<void> } | null = null;

  constructor(private readonly events: AdminEvents, private readonly now: () => number = Date.now) {}

  get running(): RestoreJob | null {
    return this.current?.job ?? null;
  }

  get(id: string): RestoreJob | undefined {
    return this.jobs.get(id);
  }

  /** Starts `run` unless a restore is running (then null). */
  start(target: string, repo: string, run: RestoreRun): RestoreJob | null {
    if (this.current) return null;
    const job: RestoreJob = { id: `restore_${randomBytes(8).toString('hex')}`, status: 'running', target, repo, started_at: this.now(), finished_at: null, progress: null, result: null };
    this.jobs.set(job.id, job);
    const abort = new AbortController();
    const onProgress = (p: RestoreProgress): void => {
      job.progress = p;
      this.events.publish('restore.progress', { id: job.id, ...p });
    };
    const done = run(onProgress, abort.signal)
      .then((result) => this.finish(job, result))
      .catch((err: unknown) => this.finish(job, null, err instanceof Error ? err.message : String(err)));
    this.current = { job, abort, done };
    return job;
  }

  /** Cancels a running restore and waits until it has put its target back. */
  async close(): Promise<void> {
    const current = this.current;
    if (!current) return;
    current.abort.abort();
    await current.done;
  }

  private finish(job: RestoreJob, result: RestoreResult | null, error?: string): void {
    job.result = result;
    job.status = result?.ok ? 'succeeded' : 'failed';
    job.finished_at = this.now();
    this.current = null;
    this.events.publish('restore.finished', {
      id: job.id, status: job.status, ok: result?.ok ?? false, generation: result?.generation ?? null, target: job.target, error: result?.error ?? error ?? null,
    });
    const finished = [...this.jobs.values()].filter((j) => j.status !== 'running');
    for (const old of finished.slice(0, Math.max(0, finished.length - KEEP_FINISHED))) this.jobs.delete(old.id);
  }
}
