// Each failure point of a passphrase rotation, with real restic, a real keychain and a real REST
// offsite that really goes down at the chosen moment (the rotation's progress callback stops it):
// before the persist nothing is revoked and the old passphrase opens everything with no extra key
// left; after it, the rotation stands, the leftover old key raises an alert and goes later.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openAlerts } from '../../../src/store/alerts.js';
import { OLD_KEY_ALERT, pendingOldKeys } from '../../../src/backup/old-keys.js';
import { PassphraseRotationError, rotatePassphrase, type RotationStep } from '../../../src/backup/passphrase-rotation.js';
import { backupHere } from '../../../src/jobs/run-here.js';
import { RESTIC_PASSPHRASE, RESTIC_PASSPHRASE_NEXT, type SecretStore } from '../../../src/secrets/secret-store.js';
import { assertOpensAll, assertOpensNone, rotationFixture, type RotationFixture } from './fixture.js';

/** Records the pending passphrase as soon as it exists, then runs `then` at `at`. */
function watch(f: RotationFixture, at: { step: RotationStep; repository?: string }, then: () => Promise<void>) {
  const seen: { next: string | null } = { next: null };
  const onStep = async (step: RotationStep, repository?: string): Promise<void> => {
    if (step === 'pending-saved') seen.next = await f.pending();
    if (step === at.step && (at.repository === undefined || at.repository === repository)) await then();
  };
  return { seen, onStep };
}

function assertNotLogged(f: RotationFixture, secrets: Array<string | null>): void {
  const log = f.logLines.join('\n');
  assert.ok(f.logLines.length > 0, 'the rotation logged its steps');
  for (const s of secrets) if (s) assert.ok(!log.includes(s), 'no passphrase in the log');
}

test('key add fails on the second repository (its server stops just before the add): nothing revoked, no key left', async () => {
  const f = await rotationFixture();
  try {
    const old = await f.current();
    const w = watch(f, { step: 'adding-key', repository: 'offsite' }, () => f.rest.stop());
    await assert.rejects(rotatePassphrase(await f.deps(), { onStep: w.onStep }), (err: unknown) => {
      assert.ok(err instanceof PassphraseRotationError);
      assert.match(err.message, /adding the new key on "offsite" failed/);
      assert.match(err.message, /Nothing was revoked/);
      return true;
    });
    await f.rest.start();
    assert.equal(await f.current(), old, 'the keychain still holds the old passphrase');
    assert.equal(await f.pending(), null, 'the pending passphrase is gone');
    await assertOpensAll(f, old, 1, 'old passphrase after a failed add');
    assert.ok(w.seen.next, 'a new passphrase was made');
    await assertOpensNone(f, w.seen.next ?? '', 'the discarded new passphrase');
    assert.deepEqual(pendingOldKeys(f.db), []);
    assertNotLogged(f, [old, w.seen.next]);
  } finally {
    await f.close();
  }
});

test('verification fails (the offsite goes down after every key was added): nothing revoked; the unused key goes after the next backup', async () => {
  const f = await rotationFixture();
  try {
    const old = await f.current();
    const w = watch(f, { step: 'keys-added' }, () => f.rest.stop());
    await assert.rejects(rotatePassphrase(await f.deps(), { onStep: w.onStep }), (err: unknown) => {
      assert.ok(err instanceof PassphraseRotationError);
      assert.match(err.message, /opening the repository with the new passphrase on "offsite" failed/);
      assert.match(err.message, /Nothing was revoked.*unused new key remains on "offsite"/);
      return true;
    });
    await f.rest.start();
    assert.equal(await f.current(), old);
    assert.equal(await f.pending(), null);
    const local = await f.keys('local', old);
    assert.ok(local !== 'refused' && local.length === 1, 'the new key was taken off local again');
    const offsite = await f.keys('offsite', old);
    assert.ok(offsite !== 'refused' && offsite.length === 2, 'the offsite was down, so its new key stayed');
    assert.equal(pendingOldKeys(f.db).length, 1, 'and is recorded for removal');

    const backup = await backupHere(await f.deps(), { trigger: 'test' });
    assert.equal(backup.status, 'ok');
    await assertOpensAll(f, old, 1, 'after the next backup');
    assert.deepEqual(pendingOldKeys(f.db), []);
    assertNotLogged(f, [old, w.seen.next]);
  } finally {
    await f.close();
  }
});

test('the keychain refuses the new passphrase (simulated keychain failure): new keys removed, nothing revoked', async () => {
  const f = await rotationFixture();
  try {
    const old = await f.current();
    const real = f.store;
    const failing: SecretStore = {
      kind: real.kind,
      description: real.description,
      get: (name) => real.get(name),
      delete: (name) => real.delete(name),
      probe: () => real.probe(),
      set: async (name, value) => {
        if (name === RESTIC_PASSPHRASE) throw new Error('the keychain refused the write (simulated)');
        await real.set(name, value);
      },
    };
    const w = watch(f, { step: 'verified' }, async () => {
      // Right before the persist the new key is on both repositories.
      await assertOpensAll(f, old, 2, 'before the persist');
    });
    await assert.rejects(
      rotatePassphrase(await f.deps(failing), { onStep: w.onStep }),
      /saving the new passphrase in .* failed \(the keychain refused the write \(simulated\)\)\. Nothing was revoked/,
    );
    assert.equal(await f.current(), old);
    assert.equal(await real.get(RESTIC_PASSPHRASE_NEXT), null);
    await assertOpensAll(f, old, 1, 'after the keychain failure');
    await assertOpensNone(f, w.seen.next ?? '', 'the new passphrase');
    assert.deepEqual(pendingOldKeys(f.db), []);
  } finally {
    await f.close();
  }
});

test('removing an old key fails (the offsite goes down after the persist): rotated, warning and alert; the next rotation cleans up', async () => {
  const f = await rotationFixture();
  try {
    const old = await f.current();
    const first = await rotatePassphrase(await f.deps(), { onStep: async (step) => (step === 'persisted' ? f.rest.stop() : undefined) });
    assert.equal(await f.current(), first.passphrase, 'rotated: the keychain holds the new passphrase');
    assert.equal(first.report.warnings.length, 1);
    assert.match(first.report.warnings[0] ?? '', /old key on "offsite" could not be removed/);
    assert.deepEqual(
      first.report.repositories.map((r) => [r.name, r.old_keys_removed]),
      [
        ['local', true],
        ['offsite', false],
      ],
    );
    assert.ok(
      openAlerts(f.db).some((a) => a.key === OLD_KEY_ALERT && /"offsite"/.test(a.message)),
      'the leftover key alerts',
    );

    await f.rest.start();
    assert.equal(await f.keys('local', old), 'refused', 'local no longer opens with the old passphrase');
    const offsite = await f.keys('offsite', old);
    assert.ok(offsite !== 'refused' && offsite.length === 2, 'the old key is still on the offsite');
    const newKeys = await f.keys('offsite', first.passphrase);
    assert.ok(newKeys !== 'refused', 'and the new passphrase opens it');

    const second = await rotatePassphrase(await f.deps());
    assert.deepEqual(second.report.warnings, []);
    assert.ok(second.report.repositories.every((r) => r.old_keys_removed));
    await assertOpensAll(f, second.passphrase, 1, 'after the second rotation');
    await assertOpensNone(f, old, 'the first passphrase');
    await assertOpensNone(f, first.passphrase, 'the second passphrase');
    assert.ok(!openAlerts(f.db).some((a) => a.key === OLD_KEY_ALERT), 'the alert is resolved');
    assertNotLogged(f, [old, first.passphrase, second.passphrase]);
  } finally {
    await f.close();
  }
});
