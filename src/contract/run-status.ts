// A run's kind and status, apart from the run itself so each kind's contract (backups.ts, drills.ts,
// restore.ts) can name them while runs.ts names each kind's progress.
import { z } from 'zod/v3';

/** Maintenance runs after a backup; `offsite-copy` is "Copy to offsite now"; `pull` is a model download. */
export const RunKind = z.enum(['backup', 'drill', 'restore', 'maintenance', 'offsite-copy', 'pull']);
export type RunKind = z.infer<typeof RunKind>;

/** `queued`: asked for, waiting for another job to end; `interrupted`: Sanad stopped (a crash, a
 *  kill, Quit) while it ran; `cancelled`: it ended before it started. */
export const RunStatus = z.enum(['queued', 'running', 'ok', 'partial', 'failed', 'interrupted', 'cancelled']);
export type RunStatus = z.infer<typeof RunStatus>;
