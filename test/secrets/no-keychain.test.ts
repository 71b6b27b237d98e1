// A headless Linux without a session bus: `sanad serve` says exactly what is missing, exits
// non-zero, and writes nothing. The explicit opt-in (a 0600 secrets file) works; a loose one is refused.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runSanad as runCli } from '../harness/run-sanad.js';
import { tempDir } from '../harness/data-dir.js';

const NO_BUS = { DBUS_SESSION_BUS_ADDRESS: '', DISPLAY: '' };

test('without a session bus serve fails with the clear error and creates nothing', async () => {
  const dataDir = join(tempDir(), 'never-created');
  const r = await runCli(['serve', '--port', '0', '--data-dir', dataDir], { env: NO_BUS });
  assert.notEqual(r.code, 0);
  assert.match(r.stderr, /OS keychain is not available/);
  assert.match(r.stderr, /no D-Bus session bus/);
  assert.match(r.stderr, /--secrets-file/);
  assert.ok(!r.stderr.includes('    at '), 'no stack trace');
  assert.equal(r.stderr.trim().split('\n').length, 1, 'one line');
  assert.equal(existsSync(dataDir), false, 'the data dir was not even created');
});

test('the secrets-file opt-in is refused unless 0600 in a 0700 folder, and then holds the secrets', async () => {
  const dir = tempDir();
  const file = join(dir, 'secrets.json');
  writeFileSync(file, '');
  chmodSync(file, 0o644);
  const dataDir = join(dir, 'data');
  const refused = await runCli(['serve', '--port', '0', '--data-dir', dataDir, '--secrets-file', file], { env: NO_BUS });
  assert.equal(refused.code, 1);
  assert.match(refused.stderr, /mode is 644, not 600/);
  assert.equal(existsSync(dataDir), false);

  chmodSync(file, 0o600);
  // 0600, but in a folder anyone may write to (where it could be swapped): refused too, saying how to fix it.
  chmodSync(dir, 0o777);
  const loose = await runCli(['serve', '--port', '0', '--data-dir', dataDir, '--secrets-file', file], { env: NO_BUS });
  assert.equal(loose.code, 1);
  assert.match(loose.stderr, /its folder .* has mode 777, not 700 \(chmod 700 /);
  assert.equal(existsSync(dataDir), false);
  chmodSync(dir, 0o700);

  // A data dir that never had secrets gets them from the first command that needs them (issue
  // "first contact"), as serve would make them; the serve after it uses those, making none anew.
  const kit = await runCli(['recovery-kit', '--data-dir', dataDir, '--secrets-file', file, '--json'], { env: NO_BUS });
  assert.equal(kit.code, 0, kit.stderr);
  const served = await runCli(['serve', '--port', '0', '--data-dir', dataDir, '--secrets-file', file, '--json'], { env: NO_BUS, stopAfterStart: true });
  assert.equal(served.code, 0, served.stderr);
  const stored: unknown = JSON.parse(readFileSync(file, 'utf8'));
  assert.ok(typeof stored === 'object' && stored !== null);
  const names = Object.keys(stored)
    .map((k) => k.split('@')[0])
    .sort();
  assert.deepEqual(names, ['restic-passphrase', 'vault-key']);
  const kit2 = await runCli(['recovery-kit', '--data-dir', dataDir, '--secrets-file', file, '--json'], { env: NO_BUS });
  assert.equal(kit2.code, 0, kit2.stderr);
  const passphrase: unknown = Object.entries(stored).find(([k]) => k.startsWith('restic-passphrase@'))?.[1];
  assert.ok(typeof passphrase === 'string' && kit2.stdout.includes(passphrase), 'the kit carries the passphrase from the file');
  assert.ok(kit.stdout.includes(passphrase), 'the secrets the CLI made are the ones serve kept');
});
