// What every check of one repository works with: the drill's deps, restic (read-only), the
// repository row and its restic target.
import type { Repository } from '../../repository/repositories.js';
import type { Restic, ResticRepo } from '../../repository/restic/index.js';
import type { DrillDeps } from '../drill-deps.js';

export interface RepoContext {
  deps: DrillDeps;
  restic: Restic;
  repo: Repository;
  target: ResticRepo;
  /** Backups were recorded for this repository: then a missing repository or snapshot is damage. */
  hadBackups: boolean;
  signal?: AbortSignal;
}

export function signalOf(ctx: Pick<RepoContext, 'signal'>): { signal?: AbortSignal } {
  return ctx.signal ? { signal: ctx.signal } : {};
}
