// Scale: the paths a person waits on, on a big data dir, at several sizes so the growth shows. A
// store of N task events (50 per task, ~300 bytes each, plus a few hundred running tasks for the
// recovery scan) and a 2 GiB model (sparse: the tiny GGUF then zeros). Each operation is the real
// CLI in its own process, under GNU time for its peak RSS (the largest of the process and the
// restic it waited for); `sanad serve` is timed to its first answer, then the first page of the
// task list. Raw restic on the same files is the baseline for the backup.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, openSync, closeSync, readFileSync, rmSync, statSync, writeFileSync, ftruncateSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { systemClock } from '../src/clock.js';
import { ModelRegistry } from '../src/engine/registry.js';
import { newId } from '../src/ids.js';
import { openStore, type Db } from '../src/store/open.js';
import { BIN } from '../test/cli/run-cli.js';
import { prepareDataDir, tempDir } from '../test/harness/data-dir.js';
import { tinyModelPath } from '../test/fixtures/tiny-model.js';
import { median } from './stats.js';
import { storePath } from '../src/files/data-dir-layout.js';

const EVENTS_PER_TASK = 50;
const RUNNING_TASKS = 200;
const MODEL_BYTES = 2 * 1024 * 1024 * 1024;
const GNU_TIME = '/usr/bin/time';

export interface ScaleOp {
  op: string;
  ms: number;
  /** Peak resident set of the process (or the restic it waited for), MiB; null without GNU time. */
  peakMiB: number | null;
  /** CPU seconds (user + system) of the process and every child it waited for; null without GNU time. */
  cpuS?: number | null;
  /** A backup's bytes added to the repository (restic's data_added), when it is one. */
  addedBytes?: number;
}

export interface ScaleSize {
  events: number;
  tasks: number;
  storeMiB: number;
  ops: ScaleOp[];
  /** Raw restic backup of the same store file and model into a fresh repository. */
  rawBackupMs: number;
}

function fill(db: Db, events: number, running = RUNNING_TASKS): number {
  const tasks = Math.ceil(events / EVENTS_PER_TASK);
  const insResponse = db.prepare(
    `INSERT INTO responses(id, client_id, model, item_id, request, metadata, background, store, output_text, created_at)
     VALUES (?, NULL, 'tiny', ?, ?, NULL, 1, 1, ?, ?)`,
  );
  const insTask = db.prepare(
    `INSERT INTO tasks(id, response_id, client_id, model, status, on_restart, last_sequence_number, output_tokens, created_at, updated_at)
     VALUES (?, ?, NULL, 'tiny', ?, 'fail', ?, ?, ?, ?)`,
  );
  const insEvent = db.prepare('INSERT INTO task_events(task_id, sequence_number, type, data, created_at) VALUES (?, ?, ?, ?, ?)');
  const request = JSON.stringify({ input: 'Tell me about the sea', instructions: null, max_output_tokens: 512, temperature: null, top_p: null });
  const now = Math.floor(Date.now() / 1000);
  const words = ['the', 'sea', 'is', 'wide', 'and', 'deep', 'under', 'a', 'grey', 'sky'];
  db.transaction(() => {
    for (let t = 0; t < tasks; t++) {
      const resp = newId('resp');
      const task = newId('task');
      // The newest few are left running, as a crash would leave them: the start-up recovers them.
      const status = t >= tasks - running ? 'running' : 'completed';
      const text = Array.from({ length: EVENTS_PER_TASK }, (_, i) => words[(t + i) % words.length]).join(' ');
      insResponse.run(resp, newId('msg'), request, status === 'completed' ? text : null, now);
      insTask.run(task, resp, status, EVENTS_PER_TASK, EVENTS_PER_TASK, now - (tasks - t), now - (tasks - t));
      for (let s = 1; s <= EVENTS_PER_TASK; s++) {
        const data = JSON.stringify({
          type: 'response.output_text.delta',
          sequence_number: s,
          item_id: `msg_${t}`,
          output_index: 0,
          content_index: 0,
          delta: ` ${words[(t + s) % words.length] ?? ''}`,
          padding: 'x'.repeat(160),
        });
        insEvent.run(task, s, 'response.output_text.delta', data, now);
      }
    }
  })();
  return tasks;
}

/** The tiny GGUF followed by zeros up to 2 GiB: a real model header, nothing on disk for the rest. */
async function bigSparseModel(dir: string): Promise<string> {
  const path = join(dir, 'big-sparse.gguf');
  writeFileSync(path, readFileSync(await tinyModelPath(1)));
  const fd = openSync(path, 'r+');
  try {
    ftruncateSync(fd, MODEL_BYTES);
  } finally {
    closeSync(fd);
  }
  return path;
}

let rssDir: string | null = null;
let rssCount = 0;

interface Timed {
  ms: number;
  peakMiB: number | null;
  cpuS: number | null;
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * `sanad …` in its own process; with GNU time, its peak RSS. A long-running one is timed to
 * `until`, then `whileUp` runs and returns the pid to stop (sanad's own, from service.json: GNU
 * time killed by a signal would report nothing).
 */
function timedSanad(args: string[], env: Record<string, string>, until?: (stdout: string) => boolean, whileUp?: () => Promise<number>): Promise<Timed> {
  rssDir ??= tempDir('sanad-bench-rss-');
  const rssFile = join(rssDir, `rss-${++rssCount}`);
  const withTime = existsSync(GNU_TIME);
  const argv = withTime ? [GNU_TIME, '-f', '%M %U %S', '-o', rssFile, process.execPath, BIN, ...args] : [process.execPath, BIN, ...args];
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const [cmd, ...rest] = argv;
    const child = spawn(cmd ?? process.execPath, rest, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let ms: number | null = null;
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
      if (until && ms === null && until(stdout)) {
        ms = performance.now() - t0;
        void (whileUp?.() ?? Promise.resolve(child.pid ?? 0)).then(
          (pid) => process.kill(pid, 'SIGTERM'),
          (err: unknown) => {
            stderr += `\n${String(err)}`;
            child.kill('SIGKILL');
          },
        );
      }
    });
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.once('error', reject);
    child.once('close', (code) => {
      const total = performance.now() - t0;
      const [kib, user, sys] = (withTime && existsSync(rssFile) ? (readFileSync(rssFile, 'utf8').trim().split('\n').at(-1) ?? '') : '').split(' ').map(Number);
      const cpu = (user ?? NaN) + (sys ?? NaN);
      resolve({
        ms: ms ?? total,
        peakMiB: kib !== undefined && Number.isFinite(kib) ? kib / 1024 : null,
        cpuS: Number.isFinite(cpu) ? cpu : null,
        code,
        stdout,
        stderr,
      });
    });
  });
}

/** restic's data_added, summed over the repositories of a `sanad backup now --json`. */
function addedBy(t: Timed): { addedBytes?: number } {
  if (!t.stdout.trim().startsWith('{')) return {};
  const sums = [...t.stdout.matchAll(/"data_added":(\d+)/g)].map((m) => Number(m[1]));
  return sums.length > 0 ? { addedBytes: sums.reduce((a, b) => a + b, 0) } : {};
}

function rawResticBackup(paths: string[], scratch: string): number {
  const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: scratch, RESTIC_PASSWORD: 'bench', RESTIC_CACHE_DIR: join(scratch, 'cache'), TZ: 'UTC' };
  const repo = join(scratch, 'repo');
  const init = spawnSync('restic', ['--repo', repo, 'init'], { env, stdio: 'ignore' });
  if (init.status !== 0) throw new Error('raw restic init failed');
  const t0 = performance.now();
  const r = spawnSync('restic', ['--repo', repo, 'backup', ...paths], { env, stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`raw restic backup failed: ${r.stderr}`);
  return performance.now() - t0;
}

function must(t: Timed, what: string, ok: (code: number | null) => boolean = (c) => c === 0): Timed {
  if (!ok(t.code)) throw new Error(`${what} exited ${String(t.code)}: ${t.stderr.slice(-800)}`);
  return t;
}

export async function scaleSize(events: number, modelPath: string): Promise<ScaleSize> {
  const prepared = await prepareDataDir();
  const root = tempDir('sanad-bench-scale-');
  const secretsFile = join(root, 'secrets');
  writeFileSync(secretsFile, '', { mode: 0o600 });
  const env = { SANAD_SECRETS_FILE: secretsFile, SANAD_LOG: 'warn', SANAD_THREADS: '1', SANAD_GPU: 'off' };
  const db = openStore(storePath(prepared.dataDir));
  let tasks: number;
  try {
    tasks = fill(db, events);
    await new ModelRegistry(db, systemClock).add(modelPath, 'big');
    db.pragma('wal_checkpoint(TRUNCATE)');
  } finally {
    db.close();
  }
  const storeMiB = statSync(storePath(prepared.dataDir)).size / 1024 / 1024;
  const ops: ScaleOp[] = [];
  const note = (op: string, t: Timed): void => void ops.push({ op, ms: t.ms, peakMiB: t.peakMiB, cpuS: t.cpuS, ...addedBy(t) });
  const dd = ['--data-dir', prepared.dataDir];
  try {
    // The start-up first: it recovers the running tasks (as after a crash) before it answers.
    const pages: number[] = [];
    const serve = must(
      await timedSanad(
        ['serve', ...dd, '--port', '0'],
        env,
        (out) => out.includes('http://'),
        async () => {
          const info: unknown = JSON.parse(readFileSync(join(prepared.dataDir, 'service.json'), 'utf8'));
          const url = typeof info === 'object' && info !== null && 'url' in info ? String(info.url) : '';
          const pid = typeof info === 'object' && info !== null && 'pid' in info ? Number(info.pid) : NaN;
          if (!Number.isInteger(pid)) throw new Error('service.json names no pid');
          for (let i = 0; i < 5; i++) {
            const t0 = performance.now();
            const res = await fetch(`${url}/v1/tasks?limit=20`, { headers: { authorization: `Bearer ${prepared.adminToken}` } });
            await res.text();
            if (res.status !== 200) throw new Error(`the task list answered ${res.status}`);
            pages.push(performance.now() - t0);
          }
          return pid;
        },
      ),
      'sanad serve',
    );
    note('start-up (store check, recovery of 200 running tasks) to first answer', serve);
    ops.push({ op: 'task list, first page (GET /v1/tasks?limit=20, median of 5)', ms: median(pages), peakMiB: null });
    note('first backup', must(await timedSanad(['backup', 'now', ...dd, '--json'], env), 'first backup'));
    note('unchanged re-backup', must(await timedSanad(['backup', 'now', ...dd, '--json'], env), 're-backup'));
    // An hour of use (100 new tasks of 50 events), then the backup an hourly schedule would make.
    const more = openStore(storePath(prepared.dataDir));
    try {
      fill(more, 100 * EVENTS_PER_TASK, 0);
      more.pragma('wal_checkpoint(TRUNCATE)');
    } finally {
      more.close();
    }
    note('backup after an hour of use (100 new tasks)', must(await timedSanad(['backup', 'now', ...dd, '--json'], env), 'hourly backup'));
    note('daily drill', must(await timedSanad(['drill', ...dd, '--json'], env), 'drill'));
    const target = join(root, 'restored');
    note('restore to a verified data dir', must(await timedSanad(['restore', ...dd, '--target', target, '--json'], env), 'restore'));
    rmSync(target, { recursive: true, force: true });
    const scratch = join(root, 'raw');
    mkdirSync(scratch);
    const rawBackupMs = rawResticBackup([storePath(prepared.dataDir), modelPath], scratch);
    return { events, tasks, storeMiB, ops, rawBackupMs };
  } finally {
    prepared.cleanup();
    rmSync(root, { recursive: true, force: true });
  }
}

export async function scaleBench(sizes: number[]): Promise<{ modelBytes: number; sizes: ScaleSize[] }> {
  const dir = tempDir('sanad-bench-bigmodel-');
  const modelPath = await bigSparseModel(dir);
  const out: ScaleSize[] = [];
  try {
    for (const events of sizes) out.push(await scaleSize(events, modelPath));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return { modelBytes: MODEL_BYTES, sizes: out };
}
