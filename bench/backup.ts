// Backups: Sanad's first backup of a data set (make a generation: online copy of the store, checks,
// manifest; then restic into a fresh local repository) against raw `restic backup` of the same
// files (the generation dir + the model files) into a fresh repository, with the same restic
// binary on the same disk in the same run. Then a second, unchanged backup against the first:
// with the previous snapshot as parent, restic must not read the model again.
import { spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { moveLocalRepository } from '../src/repository/repositories.js';
import { type BackupOutcome } from '../src/backup/run-backup.js';
import { backupHere } from '../src/jobs/run-here.js';
import type { BackupSummary } from '../src/repository/restic/index.js';
import { tempDir } from '../test/harness/data-dir.js';
import { backupDataSet, type BackupDataSet } from './backup-data.js';
import { median } from './stats.js';

export interface SanadRun {
  ms: number;
  /** Making the generation (store copy, checks, manifest); the rest is restic. */
  generationMs: number;
  /** The generation step that took longest, and how long. */
  slowestStep: string;
  summary: BackupSummary | undefined;
}

export interface BackupBenchResult {
  data: Pick<BackupDataSet, 'tasks' | 'storeBytes' | 'modelBytes'>;
  runs: number;
  sanadFirst: SanadRun;
  sanadSecond: SanadRun;
  rawFirstMs: number;
  rawSecondMs: number;
  /** One `restic cat config`: restic's fixed cost of opening a repository (start, key derivation). */
  rawOpenMs: number;
}

async function sanadRun(data: BackupDataSet): Promise<{ run: SanadRun; outcome: BackupOutcome }> {
  // Each generation step's start time; a step lasts until the next one starts.
  const steps: Array<{ step: string; at: number }> = [];
  const t0 = performance.now();
  const outcome = await backupHere(data.deps, {
    trigger: 'bench',
    onProgress: (p) => {
      if (p.phase === 'generation' && steps.at(-1)?.step !== p.step) steps.push({ step: p.step, at: performance.now() });
    },
  });
  const ms = performance.now() - t0;
  if (outcome.status !== 'ok') throw new Error(`the bench backup failed: ${JSON.stringify(outcome)}`);
  const summary = outcome.repositories.find((r) => r.name === 'local')?.summary;
  let slowest = { step: 'none', ms: 0 };
  for (let i = 0; i + 1 < steps.length; i++) {
    const [a, b] = [steps[i], steps[i + 1]];
    if (a && b && b.at - a.at > slowest.ms) slowest = { step: a.step, ms: b.at - a.at };
  }
  const done = steps.find((s) => s.step === 'done')?.at ?? t0;
  return { run: { ms, generationMs: done - t0, slowestStep: `${slowest.step} ${Math.round(slowest.ms)} ms`, summary }, outcome };
}

/** Raw restic, timed: `init` + `backup` for a first backup into a fresh repo; `backup` again for the second. */
function rawRestic(binary: string, passphrase: string, paths: string[], scratch: string): { firstMs: number; secondMs: number; openMs: number } {
  const repo = join(scratch, 'repo');
  const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: scratch, RESTIC_PASSWORD: passphrase, RESTIC_CACHE_DIR: join(scratch, 'cache'), TZ: 'UTC' };
  const restic = (args: string[]): void => {
    const r = spawnSync(binary, ['--repo', repo, '--json', ...args], { env, stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`restic ${args[0] ?? ''} failed: ${r.stderr}`);
  };
  const t0 = performance.now();
  restic(['init']);
  restic(['backup', '--tag=sanad', '--host=bench', '--', ...paths]);
  const t1 = performance.now();
  // restic picks the latest snapshot of the same paths and host as parent by itself.
  restic(['backup', '--tag=sanad', '--host=bench', '--', ...paths]);
  const t2 = performance.now();
  restic(['cat', 'config']);
  return { firstMs: t1 - t0, secondMs: t2 - t1, openMs: performance.now() - t2 };
}

export async function backupBench(tasks: number, modelMiB: number, runs: number): Promise<BackupBenchResult> {
  const data = await backupDataSet(tasks, modelMiB);
  const firsts: SanadRun[] = [];
  const seconds: SanadRun[] = [];
  const rawFirsts: number[] = [];
  const rawSeconds: number[] = [];
  const rawOpens: number[] = [];
  // One temp root (one exit hook); each round gets its own folders inside it.
  const root = tempDir('sanad-bench-backup-');
  try {
    for (let i = 0; i < runs; i++) {
      const round = join(root, String(i));
      mkdirSync(join(round, 'raw'), { recursive: true });
      // A fresh local repository each round, so each "first" backup really is a first.
      moveLocalRepository(data.db, join(round, 'sanad-repo'));
      const first = await sanadRun(data);
      firsts.push(first.run);
      seconds.push((await sanadRun(data)).run);
      // The same files Sanad gave restic: this round's generation dir and the model files.
      const generationDir = join(data.dataDir, 'backups', 'staging', String(first.outcome.generation));
      const raw = rawRestic(data.deps.restic.runtime.binary.path, data.deps.passphrase, [generationDir, ...data.modelPaths], join(round, 'raw'));
      rawFirsts.push(raw.firstMs);
      rawSeconds.push(raw.secondMs);
      rawOpens.push(raw.openMs);
    }
  } finally {
    data.db.close();
  }
  const pick = (list: SanadRun[]): SanadRun => {
    const m = median(list.map((r) => r.ms));
    return list.find((r) => r.ms === m) ?? list[0] ?? { ms: NaN, generationMs: NaN, slowestStep: 'none', summary: undefined };
  };
  return {
    data: { tasks: data.tasks, storeBytes: data.storeBytes, modelBytes: data.modelBytes },
    runs,
    sanadFirst: pick(firsts),
    sanadSecond: pick(seconds),
    rawFirstMs: median(rawFirsts),
    rawSecondMs: median(rawSeconds),
    rawOpenMs: median(rawOpens),
  };
}
