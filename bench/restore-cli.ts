// Restore as a person runs it (issue 32): the whole `sanad restore --target DIR` process against a
// whole raw `restic restore` process of the same snapshot, same binary, same disk, same run, each
// with a fresh restic cache, alternating which goes first. Also when the CLI says its first word
// (the first byte on stdout or stderr), which is where its fixed cost shows. Run on two data sets:
// the bench's own and a small one (a ~1 MB store), where the fixed costs are everything.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { getRepository } from '../src/repository/repositories.js';
import { backupHere } from '../src/jobs/run-here.js';
import { tempDir } from '../test/harness/data-dir.js';
import { backupDataSet } from './backup-data.js';
import { median } from './stats.js';

const SANAD = fileURLToPath(new URL('../../bin/sanad.js', import.meta.url));

export interface RestoreCliResult {
  tasks: number;
  storeBytes: number;
  modelBytes: number;
  runs: number;
  sanadMs: number;
  rawMs: number;
  /** From spawn to the CLI's first output, median. */
  firstWordMs: number;
}

/** Runs a process to its end; the time to its first output and to its exit, ms. */
function timed(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<{ ms: number; firstMs: number }> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    let first: number | null = null;
    let err = '';
    const child = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    const mark = (): void => {
      first ??= performance.now() - t0;
    };
    child.stdout.on('data', mark);
    child.stderr.on('data', (d: Buffer) => {
      mark();
      err += d.toString();
    });
    child.once('error', reject);
    child.once('close', (code) => {
      const ms = performance.now() - t0;
      if (code !== 0) reject(new Error(`${command} ${args.join(' ')} exited ${String(code)}: ${err.slice(-2000)}`));
      else resolve({ ms, firstMs: first ?? ms });
    });
  });
}

export async function restoreCliBench(tasks: number, modelMiB: number, runs: number): Promise<RestoreCliResult> {
  const data = await backupDataSet(tasks, modelMiB);
  const root = tempDir('sanad-bench-restore-cli-');
  try {
    const backup = await backupHere(data.deps, { trigger: 'bench' });
    const snapshotId = backup.repositories.find((r) => r.name === 'local')?.snapshot_id;
    if (backup.status !== 'ok' || !snapshotId) throw new Error(`the bench backup failed: ${JSON.stringify(backup)}`);
    const repoPath = getRepository(data.db, 'local')?.location ?? '';
    const secretsFile = data.store.path;
    if (secretsFile === undefined) throw new Error('the bench data set keeps its secrets in a file');
    const restic = data.deps.restic.runtime.binary.path;
    const sanad: Array<{ ms: number; firstMs: number }> = [];
    const raw: number[] = [];
    for (let i = 0; i < runs; i++) {
      const scratch = join(root, `raw-${i}`);
      const rawEnv = {
        PATH: process.env.PATH ?? '/usr/bin:/bin',
        HOME: scratch,
        RESTIC_PASSWORD: data.deps.passphrase,
        RESTIC_CACHE_DIR: join(scratch, 'cache'),
        TZ: 'UTC',
      };
      const doRaw = async (): Promise<void> =>
        void raw.push((await timed(restic, ['--repo', repoPath, 'restore', snapshotId, '--target', join(scratch, 'out')], rawEnv)).ms);
      if (i % 2 === 1) await doRaw();
      const home = join(root, `home-${i}`);
      // The person's environment: their HOME (a fresh restic cache there), the bench's restic.
      const env = { ...process.env, HOME: home, XDG_CACHE_HOME: join(home, '.cache'), SANAD_RESTIC: restic, SANAD_LOG: 'warn' };
      sanad.push(
        await timed(process.execPath, [SANAD, '--data-dir', data.dataDir, '--secrets-file', secretsFile, 'restore', '--target', join(root, `sanad-${i}`)], env),
      );
      if (i % 2 === 0) await doRaw();
    }
    return {
      tasks: data.tasks,
      storeBytes: data.storeBytes,
      modelBytes: data.modelBytes,
      runs,
      sanadMs: median(sanad.map((s) => s.ms)),
      rawMs: median(raw),
      firstWordMs: median(sanad.map((s) => s.firstMs)),
    };
  } finally {
    data.db.close();
  }
}
