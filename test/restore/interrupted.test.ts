// An interrupted restore never leaves a data dir that looks whole. Ctrl-C (SIGINT) cancels: restic
// is stopped, the target is removed again and the keychain holds nothing for it (exit 1). A
// SIGKILLed restore cannot clean up: it leaves only its `.sanad-restore-*` work folder (never a
// sanad.db where Sanad would read it), no keychain entry, and the next restore there refuses with
// a sentence saying what to delete.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { waitFor } from '../harness/api.js';
import { startTestAppliance, type TestAppliance } from '../harness/appliance.js';
import { tempDir } from '../harness/data-dir.js';
import { BIN } from '../cli/run-cli.js';
import { backupNow, check, keychainEntries, restoreCli } from './kit.js';

let t: TestAppliance;
before(async () => {
  t = await startTestAppliance();
  // Large enough that restic is still restoring when the signal arrives.
  const tiny = t.appliance.ctx.writer.prepare<[], { path: string }>("SELECT path FROM models WHERE id = 'tiny'").get()?.path ?? '';
  const big = join(tempDir('sanad-big-model-'), 'big.gguf');
  writeFileSync(big, Buffer.concat([readFileSync(tiny), randomBytes(384 * 1024 * 1024)]));
  assert.equal((await t.api.post('/admin/models', { path: big, id: 'big' })).status, 201);
  await backupNow(t.dataDir);
});
after(() => t.close());

/** Processes whose command line names `path` (the restic a killed CLI left behind). */
function processesNaming(path: string): number[] {
  const pids: number[] = [];
  for (const pid of readdirSync('/proc').filter((n) => /^\d+$/.test(n))) {
    try {
      if (readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(path)) pids.push(Number(pid));
    } catch {
      // gone meanwhile
    }
  }
  return pids;
}

/** Starts a human-mode restore and resolves once it reports that restic is restoring. */
async function restoringNow(target: string): Promise<{ signal(s: NodeJS.Signals): void; exit: Promise<number | null>; stderr(): string }> {
  const child = spawn(process.execPath, [BIN, 'restore', '--data-dir', t.dataDir, '--target', target], { stdio: ['ignore', 'ignore', 'pipe'] });
  let err = '';
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const exit = new Promise<number | null>((resolve) => child.once('exit', resolve));
  await waitFor(() => /… restoring/.test(err) || child.exitCode !== null, 60_000, 'the restoring phase');
  // "restoring" is said just before restic starts: an interrupt in between never meets restic
  // (CI once saw "restic was not started because the operation was already cancelled").
  // Not the CLI itself: its own argv names the target too (CI saw the wait pass at once because of it).
  await waitFor(() => processesNaming(target).some((pid) => pid !== child.pid) || child.exitCode !== null, 60_000, 'restic to run');
  assert.equal(child.exitCode, null, `the restore ended before it was interrupted:\n${err}`);
  return { signal: (s) => child.kill(s), exit, stderr: () => err };
}

test('Ctrl-C stops restic, removes the target again and stores nothing', async () => {
  const target = join(tempDir('sanad-restore-'), 'cancelled');
  const run = await restoringNow(target);
  run.signal('SIGINT');
  assert.equal(await run.exit, 1);
  assert.match(run.stderr(), /✗ snapshot:restored: restic restore on "local" was cancelled/);
  assert.match(run.stderr(), /was removed; nothing was stored in the keychain/);
  assert.ok(!existsSync(target), 'the target is absent again');
  assert.deepEqual(processesNaming(target), [], 'no restic left running');
  assert.deepEqual(await keychainEntries(target), { vaultKey: null, passphrase: null });
});

test('a SIGKILLed restore leaves only its work folder, no keychain entry, and the next restore says what to delete', async () => {
  const target = join(tempDir('sanad-restore-'), 'killed');
  const run = await restoringNow(target);
  run.signal('SIGKILL');
  await run.exit;
  // The orphaned restic finishes on its own; wait for it before looking.
  await waitFor(() => processesNaming(target).length === 0, 120_000, 'the orphaned restic to exit');
  const left = readdirSync(target);
  assert.equal(left.length, 1);
  assert.match(left[0] ?? '', /^\.sanad-restore-[0-9a-f]{12}$/);
  assert.ok(!existsSync(join(target, 'sanad.db')), 'nothing where Sanad would read a store');
  assert.deepEqual(await keychainEntries(target), { vaultKey: null, passphrase: null });

  const again = await restoreCli(t.dataDir, ['--target', target]);
  assert.equal(again.ran.code, 1);
  assert.match(check(again, 'target:empty').detail, /holds only the work folder of an interrupted restore .*; delete .* and run the restore again/);
});
