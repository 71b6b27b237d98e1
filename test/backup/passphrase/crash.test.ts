// A rotation SIGKILLed at its two dangerous moments, then a real `sanad serve` started on the data
// dir (which settles an interrupted rotation before it serves):
//  - after the new keys were added, before the persist: the start removes them again; the old
//    passphrase opens every repository and nothing extra is left.
//  - after the keychain got the new passphrase, before the pending copy was removed: the start
//    keeps the new passphrase, clears the stale kit confirmation; the next backup removes the old keys.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { pendingOldKeys } from '../../../src/backup/old-keys.js';
import { systemClock } from '../../../src/clock.js';
import { confirmRecoveryKit, recoveryKitConfirmedAt } from '../../../src/secrets/recovery-kit.js';
import { field, waitFor, noOpenRun } from '../../harness/api.js';
import { startServiceProcess } from '../../harness/service-process.js';
import { assertOpensAll, assertOpensNone, rotationFixture } from './fixture.js';

const CHILD = fileURLToPath(new URL('./fixtures/rotate-child.js', import.meta.url));

/** Starts a rotation in a child process, waits until it froze at `step`, and SIGKILLs it there. */
async function rotateAndKillAt(dataDir: string, step: string): Promise<void> {
  const child = spawn(process.execPath, [CHILD, dataDir, step], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const exited = new Promise<string | null>((resolve) => child.once('exit', (_code, signal) => resolve(signal)));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the rotation never reached ${step}: ${out} ${err}`)), 120_000);
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('paused ')) {
        clearTimeout(timer);
        if (out.includes(`paused ${step}\n`)) resolve();
        else reject(new Error(`the rotation stopped at the wrong place: ${out}`));
      }
    });
    void exited.then(() => reject(new Error(`the rotation child exited early: ${out} ${err}`)));
  });
  child.kill('SIGKILL');
  assert.equal(await exited, 'SIGKILL');
}

test('(SIGKILL) killed after the new keys were added, before the persist: the next start removes them', async () => {
  const f = await rotationFixture();
  try {
    const old = await f.current();
    await rotateAndKillAt(f.dataDir, 'keys-added');
    const pending = await f.pending();
    assert.ok(pending, 'the killed rotation left its pending passphrase');
    await assertOpensAll(f, old, 2, 'after the kill (old + new key)');
    assert.equal(await f.current(), old);

    const service = await startServiceProcess(f.dataDir, f.adminToken);
    assert.equal(await service.stop(), 0);
    assert.equal(await f.pending(), null, 'the start dropped the pending passphrase');
    assert.equal(await f.current(), old, 'and kept the old one');
    await assertOpensAll(f, old, 1, 'after the start');
    await assertOpensNone(f, pending, "the interrupted rotation's passphrase");
  } finally {
    await f.close();
  }
});

test('(SIGKILL) killed after the keychain got the new passphrase: the start finishes it; the next backup removes the old keys', async () => {
  const f = await rotationFixture();
  try {
    const old = await f.current();
    confirmRecoveryKit(f.db, systemClock);
    await rotateAndKillAt(f.dataDir, 'passphrase-saved');
    const next = await f.current();
    assert.notEqual(next, old, 'the keychain holds the new passphrase');
    assert.equal(await f.pending(), next, 'its pending copy is still there');
    assert.equal(pendingOldKeys(f.db).length, 2, 'the old keys of both repositories are recorded');

    const service = await startServiceProcess(f.dataDir, f.adminToken);
    try {
      assert.equal(await f.pending(), null, 'the start removed the pending copy');
      assert.equal(recoveryKitConfirmedAt(f.db), null, 'the kit confirmation is cleared (the stored kit is stale)');
      assert.equal((await service.api.post('/admin/backups')).status, 202);
      await waitFor(async () => await noOpenRun(service.api, 'backup'), 120_000, 'the backup');
      const runs = field((await service.api.get('/admin/backups')).body, 'data');
      assert.ok(Array.isArray(runs) && field(runs[0], 'status') === 'ok', 'the backup after the crash works');
    } finally {
      await service.stop();
    }
    await assertOpensAll(f, next, 1, 'after the backup');
    await assertOpensNone(f, old, 'the old passphrase');
    assert.deepEqual(pendingOldKeys(f.db), []);
  } finally {
    await f.close();
  }
});
