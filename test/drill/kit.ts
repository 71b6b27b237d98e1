// Shared pieces of the drill tests, all on real backups made by Sanad with the real restic:
// a backup through Sanad's own run, a hand-made generation (a real one, altered before upload, then
// backed up with restic directly with Sanad's tags and path layout), a fingerprint of every file
// and folder of a repository, a byte flipped in a pack, and `sanad drill --json` through the CLI.
import { createHash } from 'node:crypto';
import { chmodSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import assert from 'node:assert/strict';
import { backupDepsFor } from '../../src/backup/backup-deps.js';
import { backupTargets, makeGeneration } from '../../src/backup/generation/index.js';
import { getRepository } from '../../src/repository/repositories.js';
import { toResticRepo } from '../../src/repository/restic-target.js';
import type { ResticRepo } from '../../src/repository/restic/index.js';
import { type BackupOutcome } from '../../src/backup/run-backup.js';
import { backupHere } from '../../src/jobs/run-here.js';
import { systemClock } from '../../src/clock.js';
import { silentLogger } from '../../src/log/logger.js';
import type { ServiceContext } from '../../src/service/context.js';
import { runSanad, type Ran } from '../harness/run-sanad.js';
import { SNAPSHOT_TAGS, type Manifest } from '../../src/repository/generation/manifest.js';
import { removeVaultKey } from '../../src/repository/generation/vault-key-file.js';

export async function backupNow(ctx: ServiceContext): Promise<BackupOutcome> {
  const deps = await backupDepsFor({ db: ctx.writer, dataDir: ctx.dataDir, store: ctx.secrets.store, clock: systemClock, logger: silentLogger });
  const outcome = await backupHere(deps, { trigger: 'test' });
  assert.notEqual(outcome.status, 'failed', JSON.stringify(outcome));
  return outcome;
}

/** The local repository as restic sees it, with Sanad's passphrase. */
export async function localTarget(ctx: ServiceContext): Promise<{ target: ResticRepo; deps: Awaited<ReturnType<typeof backupDepsFor>> }> {
  const deps = await backupDepsFor({ db: ctx.writer, dataDir: ctx.dataDir, store: ctx.secrets.store, clock: systemClock, logger: silentLogger });
  const local = getRepository(ctx.writer, 'local');
  assert.ok(local);
  return { target: toResticRepo(local, deps.vault, deps.passphrase), deps };
}

export interface HandMade {
  /** Change the generation dir before upload; return the manifest to write (or nothing to keep it). */
  alter?: (dir: string, manifest: Manifest) => Promise<Manifest | void> | Manifest | void;
  /** What to back up (default: the folder and every model, as Sanad does). */
  paths?: (dir: string, manifest: Manifest) => string[];
}

/** A real generation, altered before upload, backed up to the local repository like Sanad does. */
export async function backupHandMade(ctx: ServiceContext, hand: HandMade): Promise<{ epoch: number; snapshotId: string }> {
  const { target, deps } = await localTarget(ctx);
  const gen = await makeGeneration({ dataDir: ctx.dataDir, db: ctx.writer, vaultKey: deps.vaultKey, clock: systemClock, appVersion: 'test' });
  const manifest = (await hand.alter?.(gen.dir, gen.manifest)) ?? gen.manifest;
  await writeFile(join(gen.dir, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  await mkdir(target.url, { recursive: true });
  if (!(await deps.restic.isInitialized(target))) await deps.restic.init(target);
  const paths = hand.paths?.(gen.dir, manifest) ?? backupTargets({ ...gen, manifest });
  const result = await deps.restic.backup(target, paths, { tags: SNAPSHOT_TAGS, host: hostname(), time: new Date() });
  await removeVaultKey(gen.dir);
  return { epoch: gen.epoch, snapshotId: result.snapshotId };
}

export function sha256(data: Buffer | string): string {
  return createHash('sha256').update(data).digest('hex');
}

/** Every file and folder under `root`: size, mtime, mode and (for files) sha256. A lock file made
 *  and removed again still shows, as the mtime of the `locks` folder. */
export function fingerprint(root: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      const info = statSync(path);
      const rel = path.slice(root.length);
      if (info.isDirectory()) {
        out[`${rel}/`] = `dir mtime=${info.mtimeMs} mode=${info.mode}`;
        walk(path);
      } else {
        out[rel] = `file size=${info.size} mtime=${info.mtimeMs} mode=${info.mode} sha=${sha256(readFileSync(path))}`;
      }
    }
  };
  out['/'] = `dir mtime=${statSync(root).mtimeMs}`;
  walk(root);
  return out;
}

/** The pack files of a local repository (`data/xx/<id>`), biggest first. */
export function packFiles(repoDir: string): Array<{ id: string; path: string; size: number }> {
  const packs: Array<{ id: string; path: string; size: number }> = [];
  for (const sub of readdirSync(join(repoDir, 'data'))) {
    for (const id of readdirSync(join(repoDir, 'data', sub))) {
      const path = join(repoDir, 'data', sub, id);
      packs.push({ id, path, size: statSync(path).size });
    }
  }
  return packs.sort((a, b) => b.size - a.size);
}

/** Flips one byte in the middle of a file (restic makes packs read-only). */
export function flipByte(path: string): void {
  chmodSync(path, 0o600);
  const data = readFileSync(path);
  const at = Math.floor(data.length / 2);
  data[at] = (data[at] ?? 0) ^ 0xff;
  writeFileSync(path, data);
  chmodSync(path, 0o400);
}

export interface CliDrill {
  ran: Ran;
  verdict: string;
  checks: Array<{ name: string; status: string; detail: string }>;
  status(name: string): string | undefined;
  detail(name: string): string;
}

/** `sanad drill --json …` through the real CLI. */
export async function drillCli(dataDir: string, args: string[] = [], env: Record<string, string> = {}): Promise<CliDrill> {
  const ran = await runSanad(['drill', '--data-dir', dataDir, '--json', ...args], { env });
  let parsed: unknown;
  try {
    parsed = JSON.parse(ran.stdout);
  } catch {
    throw new Error(`sanad drill printed no JSON (exit ${String(ran.code)}): ${ran.stdout} ${ran.stderr}`);
  }
  const verdict = typeof parsed === 'object' && parsed !== null && 'verdict' in parsed && typeof parsed.verdict === 'string' ? parsed.verdict : '';
  const raw = typeof parsed === 'object' && parsed !== null && 'checks' in parsed && Array.isArray(parsed.checks) ? parsed.checks : [];
  const checks = raw.map((c: unknown) => ({
    name: field(c, 'name'),
    status: field(c, 'status'),
    detail: field(c, 'detail'),
  }));
  return {
    ran,
    verdict,
    checks,
    status: (name) => checks.find((c) => c.name === name)?.status,
    detail: (name) => checks.find((c) => c.name === name)?.detail ?? '',
  };
}

function field(value: unknown, key: string): string {
  if (typeof value !== 'object' || value === null) return '';
  const v: unknown = Object.entries(value).find(([k]) => k === key)?.[1];
  return typeof v === 'string' ? v : '';
}
