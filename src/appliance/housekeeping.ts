// Periodic sweeps: terminal tasks past retention, expired idempotency keys and pairing codes.
// Runs once at start (after recovery) and then hourly; the timer never keeps the process alive.
import { unixSeconds } from '../clock.js';
import type { ServiceContext } from '../service/context.js';
import { sweepPairingCodes } from '../store/pairing-codes.js';
import { sweepIdempotencyKeys, sweepTerminalTasks, sweepUnstoredResponses } from '../tasks/retention.js';

const HOURLY = 3600_000;

export function sweepOnce(ctx: ServiceContext): { tasks: number; keys: number; codes: number } {
  const now = unixSeconds(ctx.clock);
  const tasks = sweepTerminalTasks(ctx.writer, now, ctx.settings().retention_days, ctx.deletions) + sweepUnstoredResponses(ctx.writer, now, ctx.deletions);
  const keys = sweepIdempotencyKeys(ctx.writer, now);
  const codes = sweepPairingCodes(ctx.writer, now);
  if (tasks + keys + codes > 0) ctx.logger.info('retention sweep', { tasks, keys, codes });
  return { tasks, keys, codes };
}

/** Starts the sweeps; returns the function that stops them. */
export function startHousekeeping(ctx: ServiceContext): () => void {
  const run = (): void => {
    try {
      sweepOnce(ctx);
    } catch (err) {
      ctx.logger.warn('retention sweep failed', { error: err instanceof Error ? err.message : String(err) });
    }
  };
  run();
  const timer = setInterval(run, HOURLY);
  timer.unref();
  return () => clearInterval(timer);
}
