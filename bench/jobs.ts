// The job owner's cost (src/jobs/): a backup asked for through it (the job, its progress throttle,
// the maintenance check after it, the finished event) against runBackup called directly on the
// same data in the same run; and one job's own bookkeeping (start, the table, end) against a bare
// awaited promise.
import { performance } from 'node:perf_hooks';
import { backupHere } from '../src/jobs/run-here.js';
import { systemClock } from '../src/clock.js';
import { AdminEvents } from '../src/jobs/admin-events.js';
import { BackupJobs } from '../src/jobs/backups.js';
import { Jobs } from '../src/jobs/jobs.js';
import { silentLogger } from '../src/log/logger.js';
import { readSettings } from '../src/store/settings.js';
import { backupDataSet } from './backup-data.js';
import { median } from './stats.js';

export interface JobsBenchResult {
  runs: number;
  directMs: number;
  viaJobsMs: number;
  jobs: number;
  bareUs: number;
  jobUs: number;
}

export async function jobsBench(tasks: number, modelMiB: number, runs: number): Promise<JobsBenchResult> {
  const data = await backupDataSet(tasks, modelMiB);
  const jobs = new Jobs({ clock: systemClock, logger: silentLogger, store: { db: data.db, dataDir: data.dataDir } });
  const backups = new BackupJobs({
    db: data.db,
    dataDir: data.dataDir,
    clock: systemClock,
    logger: silentLogger,
    store: data.store,
    settings: () => readSettings(data.db),
    jobs,
    events: new AdminEvents(),
  });
  try {
    // Warm-up: the first backup (and the maintenance a new repository is due) is not what is compared.
    await backups.run('bench');
    const direct: number[] = [];
    const via: number[] = [];
    for (let i = 0; i < runs; i++) {
      let t0 = performance.now();
      await backupHere(data.deps, { trigger: 'bench' });
      direct.push(performance.now() - t0);
      t0 = performance.now();
      await backups.run('bench');
      via.push(performance.now() - t0);
    }
    const n = 20_000;
    let t0 = performance.now();
    for (let i = 0; i < n; i++) await (async () => i)();
    const bare = performance.now() - t0;
    t0 = performance.now();
    for (let i = 0; i < n; i++) await jobs.start('drill', async () => i).done;
    const owned = performance.now() - t0;
    return { runs, directMs: median(direct), viaJobsMs: median(via), jobs: n, bareUs: (bare * 1000) / n, jobUs: (owned * 1000) / n };
  } finally {
    await jobs.stop();
    data.db.close();
  }
}
