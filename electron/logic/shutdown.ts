// Quit: stop the core gracefully, in an order that leaves no repository locked.
// 1. The running backup is cancelled through its abort signal: its restic gets SIGINT (restic then
//    removes its lock and exits with 130) and no later step of that run starts a new child. The
//    shell remembers the run (sleep-wake.ts) and retries it at the next launch.
// 2. The appliance closes, and first its job owner (src/jobs/jobs.ts) stops: it aborts the jobs it
//    started (a drill's or a restore's restic, rclone get SIGINT, then SIGKILL after their grace)
//    and waits for them; then the task runner (running generation tasks are left to
//    restart recovery, which applies each task's `on_restart` policy at the next start), the HTTP
//    server, the store, the instance lock.
// A deadline bounds the whole: a Quit that never ends is worse than one that leaves a stale lock
// (restic's own `unlock` and Sanad's drill report that case).
import type { Appliance } from '../../src/appliance/appliance.js';
import { systemClock } from '../../src/clock.js';
import type { Logger } from '../../src/log/logger.js';
import { runningChildren, type RunningChild } from '../../src/process/spawn.js';

export interface ShutdownOptions {
  /** Interrupts the running backup and records it; returns its run id or null (SleepWake.interruptBackup). */
  interruptBackup: () => number | null;
  logger: Logger;
  /** How long the running jobs may take to stop (restic needs a moment to delete its lock remotely). */
  graceMs?: number;
  /** After this the shutdown gives up waiting (the caller exits anyway). */
  deadlineMs?: number;
}

export interface ShutdownReport {
  interruptedRun: number | null;
  /** The children that were running when the shutdown began (restic, rclone). */
  children: RunningChild[];
  timedOut: boolean;
  ms: number;
}

export const DEFAULT_GRACE_MS = 15_000;
export const DEFAULT_DEADLINE_MS = 45_000;

export async function shutdownCore(appliance: Pick<Appliance, 'close'>, options: ShutdownOptions): Promise<ShutdownReport> {
  const started = systemClock.now();
  const children = runningChildren();
  let interruptedRun: number | null = null;
  const work = (async () => {
    try {
      interruptedRun = options.interruptBackup();
    } catch (err) {
      options.logger.warn('could not interrupt the running backup', { error: err instanceof Error ? err.message : String(err) });
    }
    await appliance.close({ jobsWaitMs: options.graceMs ?? DEFAULT_GRACE_MS });
  })().catch((err: unknown) => options.logger.warn('shutdown step failed', { error: err instanceof Error ? err.message : String(err) }));
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), options.deadlineMs ?? DEFAULT_DEADLINE_MS)));
  const outcome = await Promise.race([work.then(() => 'done' as const), deadline]);
  clearTimeout(timer);
  if (outcome === 'timeout') options.logger.warn('shutdown did not finish in time; exiting anyway', { children: children.map((c) => c.pid) });
  return { interruptedRun, children, timedOut: outcome === 'timeout', ms: systemClock.now() - started };
}
