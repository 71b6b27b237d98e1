// A headless server without a keychain (no session bus) that opted in to a secrets file: backup
// and restore both use that file, the restored dir's secrets land in it under the restored dir's
// own scope, and the printed next step carries --secrets-file so `sanad serve` finds them. A data
// dir `npm start` set up (the default file, no flag) restores the same way with no flag at all.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { systemClock } from '../../src/clock.js';
import { ensureMasterSecrets } from '../../src/secrets/master-secrets.js';
import { dataDirScope } from '../../src/secrets/scope.js';
import { RESTIC_PASSPHRASE, VAULT_KEY } from '../../src/secrets/secret-store.js';
import { SecretsFileStore } from '../../src/secrets/secrets-file.js';
import { openStore } from '../../src/store/open.js';
import { field } from '../harness/api.js';
import { prepareDataDir, tempDir } from '../harness/data-dir.js';
import { runSanad } from '../harness/run-sanad.js';
import { storePath } from '../../src/files/data-dir-layout.js';

const NO_BUS = { DBUS_SESSION_BUS_ADDRESS: '', DISPLAY: '' };

test('restore on a headless server with --secrets-file (no keychain at all)', async () => {
  const { dataDir } = await prepareDataDir();
  const file = join(tempDir('sanad-secrets-'), 'secrets.json');
  writeFileSync(file, '', { mode: 0o600 });
  const db = openStore(storePath(dataDir));
  const master = await ensureMasterSecrets(db, new SecretsFileStore(file, dataDirScope(dataDir)), systemClock);
  db.close();
  const backup = await runSanad(['backup', 'now', '--data-dir', dataDir, '--secrets-file', file, '--json'], { env: NO_BUS });
  assert.equal(backup.code, 0, backup.stderr);

  const target = join(tempDir('sanad-restore-'), 'headless');
  const ran = await runSanad(['restore', '--target', target, '--data-dir', dataDir, '--secrets-file', file, '--json'], { env: NO_BUS });
  assert.equal(ran.code, 0, ran.stdout + ran.stderr);
  const out: unknown = JSON.parse(ran.stdout);
  assert.match(String(field(out, 'next_step')), new RegExp(`^sanad serve --data-dir ${target} --secrets-file ${file}$`));
  const restored = new SecretsFileStore(file, dataDirScope(target));
  assert.equal(await restored.get(VAULT_KEY), master.vaultKey.toString('base64'));
  assert.equal(await restored.get(RESTIC_PASSPHRASE), master.resticPassphrase);

  const served = await runSanad(['serve', '--port', '0', '--data-dir', target, '--secrets-file', file, '--json'], { env: NO_BUS, stopAfterStart: true });
  assert.match(served.stdout, /"url":"http:\/\/127\.0\.0\.1:\d+"/, served.stderr);
  assert.equal(await restored.get(VAULT_KEY), master.vaultKey.toString('base64'), 'serving used the restored secrets');
});

test("a data dir `npm start` set up with no keychain restores without being told where the secrets go: the file, under the restored dir's scope, recorded and said", async () => {
  const home = tempDir('sanad-home-');
  // No session bus and a HOME of its own: `npm start` (serve --secrets-file-if-no-keychain) makes the default secrets file there.
  const env = { ...NO_BUS, XDG_CONFIG_HOME: join(home, '.config') };
  const { dataDir } = await prepareDataDir();
  const started = await runSanad(['serve', '--port', '0', '--data-dir', dataDir, '--secrets-file-if-no-keychain', '--json'], { env, stopAfterStart: true });
  assert.match(started.stdout, /"url":"http:\/\/127\.0\.0\.1:\d+"/, started.stderr);
  const file = join(home, '.config', 'sanad', 'secrets');
  const live = new SecretsFileStore(file, dataDirScope(dataDir));
  const key = await live.get(VAULT_KEY);
  assert.ok(key, 'serve kept the secrets in the default file');
  const backup = await runSanad(['backup', 'now', '--data-dir', dataDir, '--json'], { env });
  assert.equal(backup.code, 0, backup.stderr);

  const target = join(tempDir('sanad-restore-'), 'restored');
  const ran = await runSanad(['restore', '--target', target, '--data-dir', dataDir, '--json'], { env });
  assert.equal(ran.code, 0, ran.stdout + ran.stderr);
  const out: unknown = JSON.parse(ran.stdout);
  const checks: unknown = field(out, 'checks');
  assert.ok(Array.isArray(checks));
  const stored: unknown = checks.find((c: unknown) => field(c, 'name') === 'keychain:stored');
  assert.match(String(field(stored, 'detail')), new RegExp(`secrets file ${file}`), 'the checklist says where the secrets went');
  assert.equal(await new SecretsFileStore(file, dataDirScope(target)).get(VAULT_KEY), key, "the restored dir's own entry, in the same file");
  const record: unknown = JSON.parse(readFileSync(join(target, 'secrets-location.json'), 'utf8'));
  assert.deepEqual(record, { kind: 'file', path: file });
  assert.equal(field(out, 'next_step'), `sanad serve --data-dir ${target}`, 'no --secrets-file to remember: the record says it');

  // Served as it is, with no flag: it finds its secrets in the file.
  const served = await runSanad(['serve', '--port', '0', '--data-dir', target, '--json'], { env, stopAfterStart: true });
  assert.match(served.stdout, /"url":"http:\/\/127\.0\.0\.1:\d+"/, served.stderr);
});
