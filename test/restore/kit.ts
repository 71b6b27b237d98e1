// Shared pieces of the restore tests: a backup through the real CLI, a restore through the real
// CLI, the keychain entries of a folder, and a byte-for-byte picture of a folder tree.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, lstatSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { KeychainStore } from '../../src/secrets/keychain.js';
import { dataDirScope } from '../../src/secrets/scope.js';
import { RESTIC_PASSPHRASE, VAULT_KEY } from '../../src/secrets/secret-store.js';
import { field } from '../harness/api.js';
import { runSanad, type Ran } from '../harness/run-sanad.js';
import { prepareDataDir } from '../harness/data-dir.js';
import { addRepository } from '../../src/repository/repositories.js';
import { systemClock } from '../../src/clock.js';
import { ensureMasterSecrets } from '../../src/secrets/master-secrets.js';
import { Vault } from '../../src/secrets/vault.js';
import { openStore } from '../../src/store/open.js';
import { storePath } from '../../src/files/data-dir-layout.js';

export async function backupNow(dataDir: string): Promise<number> {
  const ran = await runSanad(['backup', 'now', '--data-dir', dataDir, '--json']);
  assert.equal(ran.code, 0, ran.stderr);
  const generation = field(JSON.parse(ran.stdout), 'generation');
  assert.equal(typeof generation, 'number');
  return Number(generation);
}

export interface RestoreCheckOut {
  name: string;
  ok: boolean;
  detail: string;
}

export interface RestoreOut {
  ran: Ran;
  generation: number | null;
  target: string;
  checks: RestoreCheckOut[];
  ok: boolean;
}

export async function restoreCli(dataDir: string, args: string[], stdin?: string): Promise<RestoreOut> {
  const ran = await runSanad(['restore', '--data-dir', dataDir, '--json', ...args], stdin !== undefined ? { stdin } : {});
  let out: unknown;
  try {
    out = JSON.parse(ran.stdout);
  } catch {
    throw new Error(`restore printed no JSON (exit ${String(ran.code)}):\n${ran.stdout}\n${ran.stderr}`);
  }
  const checks = field(out, 'checks');
  assert.ok(Array.isArray(checks));
  const list: RestoreCheckOut[] = checks.map((c: unknown) => ({
    name: String(field(c, 'name')),
    ok: field(c, 'ok') === true,
    detail: String(field(c, 'detail')),
  }));
  const generation = field(out, 'generation');
  return {
    ran,
    generation: typeof generation === 'number' ? generation : null,
    target: String(field(out, 'target')),
    checks: list,
    ok: field(out, 'ok') === true,
  };
}

export function check(out: RestoreOut, name: string): RestoreCheckOut {
  const found = out.checks.find((c) => c.name === name);
  assert.ok(found, `no check ${name} in ${JSON.stringify(out.checks)}`);
  return found;
}

export async function keychainEntries(dir: string): Promise<{ vaultKey: string | null; passphrase: string | null }> {
  const store = new KeychainStore(dataDirScope(dir));
  return { vaultKey: await store.get(VAULT_KEY), passphrase: await store.get(RESTIC_PASSPHRASE) };
}

/** Every entry under `dir` with its type, mode, size, mtime and content hash: equal pictures, untouched tree. */
export function treePicture(dir: string): string[] {
  if (!existsSync(dir)) return ['(absent)'];
  const out: string[] = [];
  const walk = (d: string, rel: string): void => {
    for (const name of readdirSync(d).sort()) {
      const p = join(d, name);
      const info = lstatSync(p);
      const hash = info.isFile() ? createHash('sha256').update(readFileSync(p)).digest('hex') : '';
      out.push(`${rel}${name} ${info.mode.toString(8)} ${info.size} ${info.mtimeMs} ${hash}`);
      if (info.isDirectory()) walk(p, `${rel}${name}/`);
    }
  };
  const top = lstatSync(dir);
  out.push(`. ${top.mode.toString(8)} ${top.mtimeMs}`);
  walk(dir, '');
  return out;
}

/** A new machine: a data dir with master secrets of its own and the REST repository `offsite` added by name. */
export async function newMachineWithOffsite(restUrl: string): Promise<{ dataDir: string; ownPassphrase: string }> {
  const machine = (await prepareDataDir()).dataDir;
  const db = openStore(storePath(machine));
  try {
    const own = await ensureMasterSecrets(db, new KeychainStore(dataDirScope(machine)), systemClock);
    addRepository(db, new Vault(db, own.vaultKey), { name: 'offsite', type: 'rest', location: restUrl }, systemClock);
    return { dataDir: machine, ownPassphrase: own.resticPassphrase };
  } finally {
    db.close();
  }
}
