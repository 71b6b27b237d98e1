// The event loop while the heavy work runs (issue 32): perf_hooks.monitorEventLoopDelay in this
// process while a backup, its maintenance (forget --prune, check), a deep drill, a restore and a
// generation view (open a generation to look inside) run one after another on the bench's data
// set, each phase measured on its own. In the desktop app this loop is the tray's, the window's
// IPC and every stream's; the goal is max <= 100 ms and p99 <= 20 ms. The baseline is the same
// monitor over an idle loop of the same length.
import { backupHere, drillHere } from '../src/jobs/run-here.js';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { runMaintenance } from '../src/backup/maintenance.js';
import { getRepository } from '../src/repository/repositories.js';
import { toResticRepo } from '../src/repository/restic-target.js';
import { createRestic } from '../src/repository/restic/index.js';
import { recordedCopies } from '../src/repository/backup-runs.js';
import { systemClock } from '../src/clock.js';
import { drillDepsFor } from '../src/drill/drill-deps.js';
import { openGenerationCopy } from '../src/history/generation-copy.js';
import { silentLogger } from '../src/log/logger.js';
import { restoreGeneration } from '../src/restore/restore-generation.js';
import { localSnapshotIds } from '../src/restore/restore-source.js';
import { listSnapshotGenerations } from '../src/restore/snapshot-generations.js';
import { dataDirScope } from '../src/secrets/scope.js';
import { SecretsFileStore } from '../src/secrets/secrets-file.js';
import { tempDir } from '../test/harness/data-dir.js';
import { backupDataSet } from './backup-data.js';

export interface LoopPhase {
  phase: string;
  ms: number;
  /** Event-loop delay, ms (10 ms resolution). */
  maxMs: number;
  p99Ms: number;
}

async function measured(phase: string, work: () => Promise<unknown>): Promise<LoopPhase> {
  const h = monitorEventLoopDelay({ resolution: 10 });
  h.enable();
  const t0 = performance.now();
  await work();
  const ms = performance.now() - t0;
  h.disable();
  // The histogram counts the delay beyond the resolution's own timer: ns -> ms.
  return { phase, ms, maxMs: h.max / 1e6, p99Ms: h.percentile(99) / 1e6 };
}

export async function loopDelayBench(tasks: number, modelMiB: number): Promise<{ storeBytes: number; phases: LoopPhase[]; idle: LoopPhase }> {
  const data = await backupDataSet(tasks, modelMiB);
  const root = tempDir('sanad-bench-loop-');
  try {
    const idle = await measured('idle', () => new Promise((r) => setTimeout(r, 2000)));
    const phases: LoopPhase[] = [];
    phases.push(
      await measured('backup', async () => {
        const b = await backupHere(data.deps, { trigger: 'bench' });
        if (b.status !== 'ok') throw new Error(`the bench backup failed: ${JSON.stringify(b)}`);
      }),
    );
    const local = getRepository(data.db, 'local');
    if (!local) throw new Error('no local repository');
    const repo = toResticRepo(local, data.deps.vault, data.deps.passphrase);
    const binary = data.deps.restic.runtime.binary;
    phases.push(
      await measured('maintenance', () =>
        runMaintenance(createRestic({ binary, cacheDir: join(root, 'mcache') }), repo, { logger: silentLogger, db: data.db, clock: systemClock }),
      ),
    );
    const drillDeps = await drillDepsFor({ db: data.db, dataDir: data.dataDir, store: data.store, clock: systemClock, logger: silentLogger });
    phases.push(await measured('deep drill', () => drillHere(drillDeps, { kind: 'deep', trigger: 'bench' })));
    const secretsFile = join(root, 'secrets.json');
    writeFileSync(secretsFile, '', { mode: 0o600 });
    phases.push(
      await measured('restore', async () => {
        const r = await restoreGeneration({
          source: {
            repoName: 'local',
            binary,
            repoFor: (p) => toResticRepo(local, data.deps.vault, p),
            knownPassphrase: data.deps.passphrase,
            recorded: recordedCopies(data.db, 'local'),
            snapshotIds: async () => localSnapshotIds(local.location),
            knownVaultKey: data.deps.vaultKey,
          },
          liveDataDir: data.dataDir,
          target: join(root, 'restored'),
          secretsFor: async (dir) => new SecretsFileStore(secretsFile, dataDirScope(dir)),
        });
        if (!r.ok) throw new Error(`the bench restore failed: ${r.error ?? ''}`);
      }),
    );
    phases.push(
      await measured('generation view', async () => {
        const restic = createRestic({ binary, cacheDir: join(root, 'vcache'), noLock: true });
        const [g] = await listSnapshotGenerations(restic, repo);
        if (!g) throw new Error('no generation');
        const opened = await openGenerationCopy({ restic, repo, g, dataDir: data.dataDir });
        await opened.close();
      }),
    );
    return { storeBytes: data.storeBytes, phases, idle };
  } finally {
    data.db.close();
  }
}
