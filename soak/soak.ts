// `npm run soak [-- --minutes N] [--seed S]`: one real `sanad serve` with a local and a REST offsite
// repository (rclone serve restic), its data dir on a small tmpfs and its secrets in a gnome-keyring
// daemon of its own; two clients writing all the while (workload.ts) while backups and drills are
// asked for and scheduled; and faults injected at moments drawn from a recorded seed (plan.ts,
// faults.ts): SIGKILL of the service (started again at once), SIGKILL of restic mid-backup, the
// offsite server killed and started again, the keychain daemon stopped and started again, the disk
// filled to the last byte and freed, the service's clock jumped forward. The same seed draws the
// same schedule. At the end (checks.ts) every response a client saw acknowledged is in the store
// with a gap-free event log and a terminal task, or was deleted on purpose; every task is terminal;
// every conversation made is there with its turns; the newest generation restores, verified, and
// holds what was acknowledged before it; a drill passes; RSS, open files and the store's size have
// settled (report.ts). It prints a table and exits 1 if any of that fails, keeping the data dir.
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { setTimeout as sleep } from 'node:timers/promises';
import Database from 'better-sqlite3';
import { field } from '../test/harness/api.js';
import { addDemoModel, prepareDataDir } from '../test/harness/data-dir.js';
import { freePort } from '../test/harness/ports.js';
import { startPrivateKeyring } from '../test/harness/private-keyring.js';
import { runSanad } from '../test/harness/run-sanad.js';
import { mountSmallDisk } from '../test/harness/small-disk.js';
import { RestServer } from '../test/backup/run/rest-server.js';
import { checkRestored, checkStore, journalIds } from './checks.js';
import { inject, noFaults, ServiceSlot, startService } from './faults.js';
import { schedule, seeded } from './plan.js';
import { printTable, sampleOf, settledOver, type Sample } from './report.js';
import { client, SoakLedger } from './workload.js';
import { storePath } from '../src/files/data-dir-layout.js';

/** The data dir's tmpfs: room for the store and the local repository of an hour's run. */
const DISK_MIB = 2048;

/** The run's length and seed from the command line, or the sentence that says what to type. */
function options(): { minutes: number; seed: number } | string {
  let values: { minutes?: string; seed?: string };
  try {
    values = parseArgs({ options: { minutes: { type: 'string', default: '10' }, seed: { type: 'string' } } }).values;
  } catch (err) {
    return `${err instanceof Error ? err.message : String(err)}. Use: npm run soak -- [--minutes N] [--seed S]`;
  }
  const minutes = Number(values.minutes);
  if (!(minutes > 0)) return `--minutes takes a positive number, such as --minutes 10 (not "${values.minutes ?? ''}").`;
  const seed = values.seed === undefined ? Math.floor(Math.random() * 2 ** 31) : Number(values.seed);
  if (!Number.isInteger(seed)) return `--seed takes a whole number, as an earlier run printed it (not "${values.seed ?? ''}").`;
  return { minutes, seed };
}

async function main(): Promise<number> {
  const parsed = options();
  if (typeof parsed === 'string') {
    console.error(parsed);
    return 2;
  }
  const { minutes, seed } = parsed;
  const totalMs = minutes * 60_000;
  const plan = schedule(seed, totalMs);
  console.log(`soak: ${minutes} min, seed ${seed}, ${plan.length} faults planned`);

  // Not a tempDir(): a failing run's folder is kept for a look.
  const work = mkdtempSync(join(tmpdir(), `sanad-soak-${seed}-`));
  const keyring = await startPrivateKeyring();
  // The CLI steps at the end use the same keychain as the service.
  Object.assign(process.env, keyring.env);
  const disk = mountSmallDisk(DISK_MIB);
  if (typeof disk === 'string') console.log(`soak: no full disk in this run: ${disk}`);
  const dataDir = typeof disk === 'string' ? join(work, 'data') : join(disk.path, 'data');
  const clockFile = join(work, 'clock-offset-ms');
  writeFileSync(clockFile, '0');
  const env = { ...keyring.env, SANAD_SOAK_CLOCK_FILE: clockFile };

  // Scheduled backups (hourly) and drills (daily) stay on: a clock jump makes them due.
  const prepared = await prepareDataDir({ backup_paused: false, drill_paused: false, offsite_retries: 0, offsite_stall_seconds: 5 }, dataDir);
  await addDemoModel(dataDir, 'demo');
  const rest = new RestServer(join(work, 'rest'), await freePort());
  await rest.start();
  const slot = await ServiceSlot.open(startService(dataDir, prepared.adminToken, env));
  const added = await slot.current.api.post('/admin/repositories', { name: 'nas', type: 'rest', location: rest.url });
  if (added.status !== 201 && added.status !== 200) throw new Error(`the offsite repository was refused: ${added.text}`);

  const ledger = new SoakLedger();
  const counts = noFaults();
  const kills: number[] = [];
  const samples: Sample[] = [];
  const started = Date.now();
  const endAt = started + totalMs;
  const targets = { service: slot, rest, keyring, disk, clockFile, kills };
  const faults = (async () => {
    for (const planned of plan) {
      const wait = started + planned.at - Date.now();
      if (wait > 0) await sleep(wait);
      await inject(planned, targets, counts).catch((err: unknown) => console.error(`fault ${planned.fault} at ${planned.at} ms failed: ${String(err)}`));
    }
  })();
  const sampler = (async () => {
    while (Date.now() < endAt) {
      samples.push(sampleOf(slot.current.child.pid, storePath(dataDir), Date.now() - started));
      await sleep(2_000);
    }
  })();
  const workRand = seeded(seed ^ 0x5eed);
  await Promise.all([client(slot, ledger, workRand, endAt), client(slot, ledger, workRand, endAt), faults, sampler]);

  // Quiet: the last backup, with every fault undone; then every task ends, and the service stops.
  const service = slot.current;
  await sleep(2_000);
  const lastAskedAt = Date.now();
  const last = await service.api.post('/admin/backups', {});
  const lastRun = Number(field(last.body, 'run_id'));
  let lastStatus = 'running';
  for (let tries = 0; tries < 600 && (lastStatus === 'queued' || lastStatus === 'running'); tries++) {
    await sleep(1_000);
    lastStatus = String(field((await service.api.get(`/admin/runs/${lastRun}`)).body, 'status'));
  }
  for (let tries = 0; tries < 120; tries++) {
    let open = 0;
    for (const status of ['queued', 'loading', 'running', 'cancelling']) {
      const data = field((await service.api.get(`/v1/tasks?status=${status}&limit=1`)).body, 'data');
      open += Array.isArray(data) ? data.length : 1;
    }
    if (open === 0) break;
    await sleep(1_000);
  }
  await service.stop();

  const verdict = checkStore(dataDir, ledger, started, kills);
  const db = new Database(storePath(dataDir), { readonly: true });
  const generation = db.prepare<[number], { generation: number | null }>('SELECT generation FROM runs WHERE id = ?').get(lastRun)?.generation ?? null;
  // What the runs record says happened, by kind and trigger: the scheduled ones are the clock jumps' doing.
  const runRows = db
    .prepare<[], { kind: string; trigger: string; statuses: string }>(
      `SELECT kind, trigger, group_concat(status || ' ' || n, ', ') AS statuses
         FROM (SELECT kind, trigger, status, count(*) AS n FROM runs GROUP BY kind, trigger, status)
        GROUP BY kind, trigger ORDER BY kind, trigger`,
    )
    .all()
    .map((r): [string, string] => [`runs: ${r.kind} (${r.trigger})`, r.statuses]);
  db.close();
  let restoresVerified = 0;
  let missing: string[] = [];
  if (generation !== null) {
    const target = join(work, 'restored');
    const restored = await runSanad(['restore', '--target', target, '--generation', String(generation), '--repo', 'nas', '--json', '--data-dir', dataDir], {
      env,
    });
    if (restored.code === 0) {
      restoresVerified++;
      missing = checkRestored(target, ledger, journalIds(dataDir), lastAskedAt);
    } else console.error(`restore of generation ${generation} failed: ${restored.stderr}`);
    rmSync(target, { recursive: true, force: true });
  }
  const drill = await runSanad(['drill', '--json', '--data-dir', dataDir], { env });
  const drillVerdict = drill.code === 0 ? 'PASS' : drill.code === 1 ? 'FAIL' : 'UNVERIFIED';
  await rest.stop();

  const settled = settledOver(samples, totalMs);
  const c = ledger.counts;
  printTable([
    ['seed (replay with --seed)', String(seed)],
    ['minutes', String(minutes)],
    ['client cycles', String(c.cycles)],
    ['service kills (SIGKILL, restarted)', String(counts['kill-service'])],
    ['restic killed mid-backup (of times tried)', `${counts['restic-found']} (${counts['kill-restic']})`],
    ['offsite server killed and restarted', String(counts['offsite-down'])],
    ['keychain daemon stopped and restarted', String(counts['keychain-restart'])],
    ['disk filled to the last byte and freed', typeof disk === 'string' ? `skipped ${counts.skipped}` : String(counts['disk-full'])],
    ['clock jumps forward (hours in all)', `${counts['clock-jump']} (${counts['clock-hours']} h)`],
    ['backups / drills asked for', `${c.backups} / ${c.drills}`],
    ...runRows,
    ['conversations made / turns answered', `${c.conversations} / ${c.turns}`],
    ['responses acknowledged', String(ledger.acked.length)],
    ['deleted on purpose', String(ledger.deleted.size)],
    ['lost (must be 0)', String(verdict.lost.length + verdict.conversationsLost.length)],
    ['tasks not terminal at the end (must be 0)', String(verdict.open)],
    ['last backup', `${lastStatus}, generation ${generation ?? 'none'}`],
    ['missing from the restored generation (must be 0)', String(missing.length)],
    ['restores verified', String(restoresVerified)],
    ['drill', drillVerdict],
    ...settled.rows,
  ]);
  for (const line of [...verdict.lost, ...verdict.conversationsLost].slice(0, 20)) console.log(`lost: ${line}`);
  if (missing.length > 0) console.log(`missing from the restore: ${missing.slice(0, 20).join(', ')}`);

  const ok =
    verdict.lost.length === 0 &&
    verdict.conversationsLost.length === 0 &&
    verdict.open === 0 &&
    missing.length === 0 &&
    restoresVerified === 1 &&
    drillVerdict === 'PASS' &&
    settled.settled;
  if (ok) rmSync(work, { recursive: true, force: true });
  else {
    if (typeof disk !== 'string') cpSync(dataDir, join(work, 'data'), { recursive: true });
    console.log(`soak: FAILED; its data dir, offsite repository and clock are kept in ${work}`);
  }
  if (typeof disk !== 'string') disk.unmount();
  await keyring.close();
  return ok ? 0 : 1;
}

process.exitCode = await main();
