// `npm run soak [-- --minutes N] [--seed S]`: one real `sanad serve` with a local and a REST offsite
// repository (rclone serve restic), clients writing all the while (foreground and background
// responses, continuations, cancels, deletes) and a backup asked for every few seconds, while faults
// are injected at moments drawn from a recorded seed: SIGKILL of the service (started again at
// once), SIGKILL of restic in the middle of a backup, the offsite server killed and started again.
// The same seed draws the same schedule. At the end it checks, in the store itself, that every
// response a client saw acknowledged (a 202, or a completed answer) is there with a gap-free event
// log and a terminal task, or was deleted on purpose (the client asked; the journal says so until its
// own retention drops the entry); that the newest
// generation restores, verified, and holds every response acknowledged before that backup began;
// that a drill passes; and how RSS, open files and the store's size moved (no growth over the last
// third). It prints a table and exits 1 if anything was lost.
//
// Not yet injected (issue 34 asks for them): the keychain daemon restarted, a full disk, a clock jump.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { setTimeout as sleep } from 'node:timers/promises';
import Database from 'better-sqlite3';
import { journalPath, parseJournal } from '../src/store/deletion-journal.js';
import { storePath } from '../src/store/open.js';
import { field } from '../test/harness/api.js';
import { addDemoModel, prepareDataDir, tempDir } from '../test/harness/data-dir.js';
import { freePort } from '../test/harness/ports.js';
import { runSanad } from '../test/harness/run-sanad.js';
import { startServiceProcess, type ServiceProcess } from '../test/harness/service-process.js';
import { RestServer } from '../test/backup/run/rest-server.js';

type Fault = 'kill-service' | 'kill-restic' | 'offsite-down';
const FAULTS: readonly Fault[] = ['kill-service', 'kill-restic', 'offsite-down'];

/** A small seeded generator (mulberry32): the same seed, the same draws. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The fault schedule a seed draws: one fault every 8 to 20 seconds. */
export function schedule(seed: number, totalMs: number): Array<{ at: number; fault: Fault }> {
  const rand = seeded(seed);
  const out: Array<{ at: number; fault: Fault }> = [];
  for (let at = 8_000 + rand() * 12_000; at < totalMs - 15_000; at += 8_000 + rand() * 12_000) {
    out.push({ at: Math.round(at), fault: FAULTS[Math.floor(rand() * FAULTS.length)] ?? 'kill-service' });
  }
  return out;
}

interface Acked {
  id: string;
  at: number;
  how: 'answered' | 'accepted' | 'continued';
}

function childrenOf(pid: number): Array<{ pid: number; args: string[] }> {
  const out: Array<{ pid: number; args: string[] }> = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid) {
        out.push({ pid: Number(entry), args: readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').filter(Boolean) });
      }
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

function sample(pid: number | undefined): { rss: number; fds: number } {
  if (pid === undefined) return { rss: 0, fds: 0 };
  try {
    const rss = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) * 1024;
    return { rss, fds: readdirSync(`/proc/${pid}/fd`).length };
  } catch {
    return { rss: 0, fds: 0 };
  }
}

async function main(): Promise<number> {
  const { values } = parseArgs({ options: { minutes: { type: 'string', default: '10' }, seed: { type: 'string' } } });
  const minutes = Number(values.minutes);
  if (!(minutes > 0)) throw new Error('--minutes takes a positive number.');
  const seed = values.seed === undefined ? Math.floor(Math.random() * 2 ** 31) : Number(values.seed);
  const totalMs = minutes * 60_000;
  const plan = schedule(seed, totalMs);
  const rand = seeded(seed ^ 0x5eed);

  const prepared = await prepareDataDir({ backup_paused: true, drill_paused: true, offsite_retries: 0, offsite_stall_seconds: 5 });
  await addDemoModel(prepared.dataDir, 'demo');
  const rest = new RestServer(tempDir('sanad-soak-rest-'), await freePort());
  await rest.start();
  let service: ServiceProcess = await startServiceProcess(prepared.dataDir, prepared.adminToken);
  const added = await service.api.post('/admin/repositories', { name: 'nas', type: 'rest', location: rest.url });
  if (added.status !== 201 && added.status !== 200) throw new Error(`the offsite repository was refused: ${added.text}`);

  const acked: Acked[] = [];
  const deleted = new Set<string>();
  // A delete the client asked for, answered or not (a kill may cut the answer of a delete that
  // committed): its response may be gone. The journal alone cannot say so: its own retention
  // (jobs/journal-retention.ts) drops entries older than the oldest generation left anywhere.
  const deleteAsked = new Set<string>();
  const faultCounts: Record<Fault, number> = { 'kill-service': 0, 'kill-restic': 0, 'offsite-down': 0 };
  const counts = {
    cycles: 0,
    faults: faultCounts,
    backups: 0,
    requests: 0,
    refused: 0,
  };
  const backupsStarted: Array<{ at: number; generation: number | null }> = [];
  const samples: Array<{ at: number; rss: number; fds: number; store: number }> = [];
  const started = Date.now();
  let restarting: Promise<void> | null = null;

  const restart = async (): Promise<void> => {
    await service.kill();
    service = await startServiceProcess(prepared.dataDir, prepared.adminToken);
  };
  const kills: number[] = [];
  const faultAt = async (fault: Fault): Promise<void> => {
    counts.faults[fault]++;
    if (fault === 'kill-service') kills.push(Date.now());
    if (fault === 'kill-service') {
      restarting = restart();
      await restarting;
      restarting = null;
    } else if (fault === 'kill-restic') {
      const pid = service.child.pid;
      const restic = pid === undefined ? undefined : childrenOf(pid).find((c) => c.args.some((a) => a.endsWith('restic')) && c.args.includes('backup'));
      if (restic) process.kill(restic.pid, 'SIGKILL');
    } else {
      await rest.stop('SIGKILL');
      await sleep(3_000 + rand() * 5_000);
      await rest.start();
    }
  };

  const client = async (): Promise<void> => {
    const previous: string[] = [];
    while (Date.now() - started < totalMs) {
      if (restarting) {
        await restarting.catch(() => undefined);
        continue;
      }
      const api = service.api;
      const r = rand();
      counts.requests++;
      try {
        if (r < 0.35) {
          const res = await api.post('/v1/responses', { model: 'demo', input: `soak ${counts.requests}`, max_output_tokens: 8 });
          if (res.status === 200 && field(res.body, 'status') === 'completed')
            acked.push({ id: String(field(res.body, 'id')), at: Date.now(), how: 'answered' });
          if (res.status === 200) previous.push(String(field(res.body, 'id')));
        } else if (r < 0.6) {
          const res = await api.post('/v1/responses', { model: 'tiny', input: `background ${counts.requests}`, max_output_tokens: 24, background: true });
          if (res.status === 202 || res.status === 200) acked.push({ id: String(field(res.body, 'id')), at: Date.now(), how: 'accepted' });
        } else if (r < 0.7) {
          const last = previous.at(-1);
          if (last !== undefined) {
            const res = await api.post('/v1/responses', { model: 'demo', input: 'and then', previous_response_id: last, max_output_tokens: 8 });
            if (res.status === 200 && field(res.body, 'status') === 'completed')
              acked.push({ id: String(field(res.body, 'id')), at: Date.now(), how: 'continued' });
          }
        } else if (r < 0.8) {
          const target = acked[Math.floor(rand() * acked.length)];
          if (target) await api.post(`/v1/responses/${target.id}/cancel`);
        } else if (r < 0.85) {
          const target = acked[Math.floor(rand() * acked.length)];
          if (target && !deleted.has(target.id)) {
            deleteAsked.add(target.id);
            if ((await api.request('DELETE', `/v1/responses/${target.id}`)).status === 200) deleted.add(target.id);
          }
        } else if (r < 0.95) {
          const res = await api.post('/admin/backups', {});
          if (res.status === 202) {
            counts.backups++;
            backupsStarted.push({ at: Date.now(), generation: null });
          }
        } else {
          await sleep(200);
        }
      } catch {
        // The service was killed under this request: not acknowledged, so not counted.
        counts.refused++;
        await sleep(200);
      }
      counts.cycles++;
    }
  };

  const faults = (async () => {
    for (const { at, fault } of plan) {
      const wait = started + at - Date.now();
      if (wait > 0) await sleep(wait);
      await faultAt(fault).catch((err: unknown) => console.error(`fault ${fault} failed: ${String(err)}`));
    }
  })();
  const sampler = (async () => {
    while (Date.now() - started < totalMs) {
      const s = sample(service.child.pid);
      samples.push({ at: Date.now() - started, ...s, store: statSync(storePath(prepared.dataDir)).size });
      await sleep(2_000);
    }
  })();
  await Promise.all([client(), client(), faults, sampler]);

  // Quiet: the last backup, with the offsite back, then stop and read the store itself.
  await rest.start().catch(() => undefined);
  await sleep(2_000);
  const lastAskedAt = Date.now();
  const last = await service.api.post('/admin/backups', {});
  const lastRun = Number(field(last.body, 'run_id'));
  for (;;) {
    const run = await service.api.get(`/admin/runs/${lastRun}`);
    const status = field(run.body, 'status');
    if (status !== 'queued' && status !== 'running') break;
    await sleep(1_000);
  }
  // Every task ends: the background ones run to their token limit.
  for (let tries = 0; tries < 120; tries++) {
    let open = 0;
    for (const status of ['queued', 'loading', 'running', 'cancelling']) {
      const answer = await service.api.get(`/v1/tasks?status=${status}&limit=1`);
      const data = field(answer.body, 'data');
      open += Array.isArray(data) ? data.length : 0;
    }
    if (open === 0) break;
    await sleep(1_000);
  }
  await service.stop();

  const db = new Database(storePath(prepared.dataDir), { readonly: true });
  const journal = new Set(parseJournal(readFileSync(journalPath(prepared.dataDir), 'utf8')).map((d) => d.id));
  let lost = 0;
  const lostIds: string[] = [];
  for (const a of acked) {
    const task = db
      .prepare<[string], { id: string; status: string; last_sequence_number: number }>(
        'SELECT id, status, last_sequence_number FROM tasks WHERE response_id = ?',
      )
      .get(a.id);
    if (!task) {
      if (!journal.has(a.id) && !deleteAsked.has(a.id)) {
        lost++;
        const kill = kills.map((k) => k - a.at).filter((d) => d >= 0)[0];
        lostIds.push(
          `${a.id} (${a.how} at ${((a.at - started) / 1000).toFixed(1)} s${kill === undefined ? '' : `, the service killed ${kill} ms later`}; no task, not in the journal)`,
        );
      }
      continue;
    }
    const seqs = db
      .prepare<[string], { n: number }>('SELECT sequence_number AS n FROM task_events WHERE task_id = ? ORDER BY sequence_number')
      .all(task.id)
      .map((r) => r.n);
    const gapFree = seqs.every((n, i) => n === i + 1) && seqs.length === task.last_sequence_number;
    if (!['completed', 'failed', 'cancelled'].includes(task.status) || !gapFree) {
      lost++;
      lostIds.push(`${a.id} (${task.status}, events ${seqs.length}/${task.last_sequence_number})`);
    }
  }
  const generation = db.prepare<[number], { generation: number | null }>('SELECT generation FROM runs WHERE id = ?').get(lastRun)?.generation ?? null;
  db.close();

  let restoreVerified = 0;
  let missingInRestore = 0;
  if (generation !== null) {
    const target = join(tempDir('sanad-soak-restore-'), 'restored');
    const restored = await runSanad([
      'restore',
      '--target',
      target,
      '--generation',
      String(generation),
      '--repo',
      'nas',
      '--json',
      '--data-dir',
      prepared.dataDir,
    ]);
    if (restored.code === 0) {
      restoreVerified++;
      const copy = new Database(storePath(target), { readonly: true });
      for (const a of acked) {
        if (a.at >= lastAskedAt || journal.has(a.id) || deleteAsked.has(a.id)) continue;
        if (!copy.prepare<[string], { id: string }>('SELECT id FROM responses WHERE id = ?').get(a.id)) missingInRestore++;
      }
      copy.close();
    } else {
      console.error(`restore of generation ${generation} failed: ${restored.stderr}`);
    }
  }
  const drill = await runSanad(['drill', '--json', '--data-dir', prepared.dataDir]);
  const verdict = drill.code === 0 ? 'PASS' : drill.code === 1 ? 'FAIL' : 'UNVERIFIED';
  await rest.stop();

  const third = samples.filter((s) => s.at >= (totalMs * 2) / 3);
  const middle = samples.filter((s) => s.at >= totalMs / 3 && s.at < (totalMs * 2) / 3);
  const peak = (xs: typeof samples, k: 'rss' | 'fds' | 'store'): number => Math.max(0, ...xs.map((s) => s[k]));
  const mib = (n: number): string => `${(n / 1048576).toFixed(1)} MiB`;
  const rows: Array<[string, string]> = [
    ['seed (replay with --seed)', String(seed)],
    ['minutes', String(minutes)],
    ['client cycles', String(counts.cycles)],
    ['service kills (SIGKILL, restarted)', String(counts.faults['kill-service'])],
    ['restic kills mid-backup', String(counts.faults['kill-restic'])],
    ['offsite server killed and restarted', String(counts.faults['offsite-down'])],
    ['backups asked for', String(counts.backups)],
    ['responses acknowledged', String(acked.length)],
    ['deleted on purpose', String(deleted.size)],
    ['lost (must be 0)', String(lost)],
    ['missing from the restored generation', String(missingInRestore)],
    ['restores verified', String(restoreVerified)],
    ['drill', verdict],
    ['peak RSS (middle third / last third)', `${mib(peak(middle, 'rss'))} / ${mib(peak(third, 'rss'))}`],
    ['peak open files (middle / last third)', `${peak(middle, 'fds')} / ${peak(third, 'fds')}`],
    ['store size (middle / last third)', `${mib(peak(middle, 'store'))} / ${mib(peak(third, 'store'))}`],
  ];
  const width = Math.max(...rows.map(([k]) => k.length));
  console.log(rows.map(([k, v]) => `${k.padEnd(width)}  ${v}`).join('\n'));
  if (lostIds.length > 0) console.log(`lost: ${lostIds.slice(0, 20).join(', ')}`);
  return lost === 0 && missingInRestore === 0 && restoreVerified === 1 && verdict === 'PASS' ? 0 : 1;
}

process.exitCode = await main();
