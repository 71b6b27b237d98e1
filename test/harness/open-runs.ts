// A running backup's progress as the service holds it, in process: the open run's (Jobs.openRuns),
// read through the contract's schema so a test sees exactly what a client would.
import { BackupPhase } from '../../src/contract/backups.js';
import type { Jobs } from '../../src/jobs/jobs.js';

export function backupProgress(ctx: { jobs: Jobs }): BackupPhase | null {
  const run = ctx.jobs.openRuns().find((r) => r.kind === 'backup' && r.status === 'running');
  const parsed = BackupPhase.safeParse(run?.progress);
  return parsed.success ? parsed.data : null;
}
