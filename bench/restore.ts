// Restore: Sanad's restore of a generation (find it by epoch, read manifest and vault key, restic
// restore, sha256 of every item, place files, read-only integrity checks, registry update, Sanad's
// own open, secrets stored) against raw `restic restore` of the same snapshot into a fresh folder,
// same binary, same disk, same run, each with a fresh restic cache. Sanad's time is the RTO: from
// "restore" to a verified data dir that `sanad serve` can start on.
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { recordedCopies } from '../src/repository/backup-runs.js';
import { getRepository } from '../src/repository/repositories.js';
import { toResticRepo } from '../src/repository/restic-target.js';
import { backupHere } from '../src/jobs/run-here.js';
import { restoreGeneration, type RestoreResult } from '../src/restore/restore-generation.js';
import { localSnapshotIds } from '../src/restore/restore-source.js';
import type { RestorePhase } from '../src/restore/restore-progress.js';
import { dataDirScope } from '../src/secrets/scope.js';
import { SecretsFileStore } from '../src/secrets/secrets-file.js';
import { tempDir } from '../test/harness/data-dir.js';
import { backupDataSet, type BackupDataSet } from './backup-data.js';
import { median } from './stats.js';

export interface RestoreBenchResult {
  data: Pick<BackupDataSet, 'tasks' | 'storeBytes' | 'modelBytes'>;
  runs: number;
  /** Median Sanad restore on the machine that made the backup (from its records), ms: the RTO. */
  sanadMs: number;
  /** The same restore without records (a new machine: restic lists the snapshots, dumps the manifest). */
  newMachineMs: number;
  rawMs: number;
  /** Of the median Sanad run: ms spent in each phase. */
  phases: Partial<Record<RestorePhase, number>>;
  newMachinePhases: Partial<Record<RestorePhase, number>>;
  checks: number;
}

function rawRestore(binary: string, passphrase: string, repo: string, snapshotId: string, scratch: string): number {
  const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: scratch, RESTIC_PASSWORD: passphrase, RESTIC_CACHE_DIR: join(scratch, 'cache'), TZ: 'UTC' };
  const t0 = performance.now();
  const r = spawnSync(binary, ['--repo', repo, 'restore', snapshotId, '--target', join(scratch, 'out')], {
    env,
    stdio: ['ignore', 'ignore', 'pipe'],
    encoding: 'utf8',
  });
  if (r.status !== 0) throw new Error(`raw restic restore failed: ${r.stderr}`);
  return performance.now() - t0;
}

async function sanadRestore(
  data: BackupDataSet,
  secretsFile: string,
  target: string,
  records: boolean,
): Promise<{ ms: number; result: RestoreResult; phases: Partial<Record<RestorePhase, number>> }> {
  const local = getRepository(data.db, 'local');
  if (!local) throw new Error('the bench data dir has no local repository');
  const marks: Array<{ phase: RestorePhase; at: number }> = [];
  const t0 = performance.now();
  const result = await restoreGeneration({
    source: {
      repoName: 'local',
      binary: data.deps.restic.runtime.binary,
      repoFor: (p) => toResticRepo(local, data.deps.vault, p),
      knownPassphrase: data.deps.passphrase,
      // This machine's restore reads its records and uses its own vault key; a new machine has neither.
      recorded: records ? recordedCopies(data.db, 'local') : [],
      snapshotIds: async () => (records ? localSnapshotIds(local.location) : null),
      knownVaultKey: records ? data.deps.vaultKey : null,
    },
    liveDataDir: data.dataDir,
    target,
    secretsFor: async (dir) => new SecretsFileStore(secretsFile, dataDirScope(dir)),
    onProgress: (p) => {
      if (marks.at(-1)?.phase !== p.phase) marks.push({ phase: p.phase, at: performance.now() });
    },
  });
  const ms = performance.now() - t0;
  if (!result.ok) throw new Error(`the bench restore failed: ${result.error ?? ''}`);
  const phases: Partial<Record<RestorePhase, number>> = {};
  marks.forEach((m, i) => (phases[m.phase] = (marks[i + 1]?.at ?? t0 + ms) - m.at));
  return { ms, result, phases };
}

export async function restoreBench(tasks: number, modelMiB: number, runs: number): Promise<RestoreBenchResult> {
  const data = await backupDataSet(tasks, modelMiB);
  const root = tempDir('sanad-bench-restore-');
  const secretsFile = join(root, 'secrets.json');
  writeFileSync(secretsFile, '', { mode: 0o600 });
  try {
    const backup = await backupHere(data.deps, { trigger: 'bench' });
    const snapshotId = backup.repositories.find((r) => r.name === 'local')?.snapshot_id;
    if (backup.status !== 'ok' || !snapshotId) throw new Error(`the bench backup failed: ${JSON.stringify(backup)}`);
    const repoPath = getRepository(data.db, 'local')?.location ?? '';
    const sanad: Array<Awaited<ReturnType<typeof sanadRestore>>> = [];
    const fresh: Array<Awaited<ReturnType<typeof sanadRestore>>> = [];
    const raw: number[] = [];
    for (let i = 0; i < runs; i++) {
      // Alternate which goes first, so neither always finds the page cache warmed by the other.
      const doRaw = (): void =>
        void raw.push(rawRestore(data.deps.restic.runtime.binary.path, data.deps.passphrase, repoPath, snapshotId, join(root, `raw-${i}`)));
      if (i % 2 === 1) doRaw();
      sanad.push(await sanadRestore(data, secretsFile, join(root, `sanad-${i}`), true));
      fresh.push(await sanadRestore(data, secretsFile, join(root, `new-${i}`), false));
      if (i % 2 === 0) doRaw();
    }
    const mid = median(sanad.map((s) => s.ms));
    const pick = sanad.find((s) => s.ms === mid) ?? sanad[0];
    const freshMid = median(fresh.map((s) => s.ms));
    return {
      data: { tasks: data.tasks, storeBytes: data.storeBytes, modelBytes: data.modelBytes },
      runs,
      sanadMs: mid,
      newMachineMs: freshMid,
      rawMs: median(raw),
      phases: pick?.phases ?? {},
      newMachinePhases: (fresh.find((s) => s.ms === freshMid) ?? fresh[0])?.phases ?? {},
      checks: pick?.result.checks.length ?? 0,
    };
  } finally {
    data.db.close();
  }
}
