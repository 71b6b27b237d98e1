// Shared pieces of the offsite-copy tests: a fake but schema-valid generation dir (with a vault key
// that must never leave), a temp rclone.conf, and real `rclone serve webdav` servers on loopback.
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { ManualClock } from '../../../src/clock.js';
import { openStore, type Db } from '../../../src/store/open.js';
import { freePort } from '../../harness/ports.js';

/** A low scrypt work factor keeps each encryption fast; one test uses age's default 18. */
export const FAST_SCRYPT = 10;
export const PASSPHRASE = 'correct horse battery staple سند';

export function tempDir(prefix = 'sanad-offsite-test-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

function sha(data: Buffer): string {
  return createHash('sha256').update(data).digest('hex');
}

/** A generation dir named by `epoch` with manifest.json, sanad.db (random bytes) and vault.key. */
export function makeGenerationDir(parent: string, epoch: number, dbBytes = 50_000): string {
  const dir = join(parent, String(epoch));
  const db = randomBytes(dbBytes);
  const key = Buffer.from(randomBytes(32).toString('base64'));
  mkdirSync(dir, { mode: 0o700 });
  writeFileSync(join(dir, 'sanad.db'), db);
  writeFileSync(join(dir, 'vault.key'), key, { mode: 0o600 });
  const manifest = {
    format_version: 1,
    app_version: '0.0.0-test',
    generation: epoch,
    created_at: new Date(epoch * 1000).toISOString(),
    host: hostname(),
    items: [
      { kind: 'sqlite', path: 'sanad.db', size: db.length, sha256: sha(db), tables: 1 },
      { kind: 'vault_key', path: 'vault.key', size: key.length, sha256: sha(key) },
    ],
  };
  writeFileSync(join(dir, 'manifest.json'), JSON.stringify(manifest));
  return dir;
}

export function writeConf(dir: string, text: string): string {
  const path = join(dir, 'rclone.conf');
  writeFileSync(path, text, { mode: 0o600 });
  return path;
}

export function setupDb(): { db: Db; clock: ManualClock } {
  return { db: openStore(':memory:'), clock: new ManualClock(1_800_000_000_000) };
}

/** The copy names in a local folder, sorted. */
export function copiesIn(folder: string): string[] {
  return readdirSync(folder)
    .filter((n) => n.startsWith('sanad-'))
    .sort((a, b) => epochOf(a) - epochOf(b));
}

function epochOf(name: string): number {
  return Number(/^sanad-(\d+)/.exec(name)?.[1] ?? NaN);
}

export { freePort };

export interface WebdavServer {
  port: number;
  stop(): Promise<void>;
}

/** `rclone serve webdav --addr 127.0.0.1:PORT TARGET` (a dir, or a remote of `config`), ready to answer. */
export async function startWebdav(target: string, options: { port?: number; config?: string; readOnly?: boolean } = {}): Promise<WebdavServer> {
  const port = options.port ?? (await freePort());
  const args = ['serve', 'webdav', '--addr', `127.0.0.1:${port}`, `--config=${options.config ?? '/dev/null'}`];
  if (options.readOnly) args.push('--read-only');
  const child: ChildProcess = spawn('rclone', [...args, '--', target], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (c: Buffer) => (stderr += c.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  for (let i = 0; ; i++) {
    if (child.exitCode !== null) throw new Error(`rclone serve webdav exited: ${stderr}`);
    const ok = await fetch(`http://127.0.0.1:${port}/`, { method: 'OPTIONS' }).then(
      () => true,
      () => false,
    );
    if (ok) break;
    if (i > 100) throw new Error(`rclone serve webdav did not start: ${stderr}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    port,
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

export function webdavSection(name: string, port: number): string {
  return `[${name}]\ntype = webdav\nurl = http://127.0.0.1:${port}/\nvendor = other\n`;
}
