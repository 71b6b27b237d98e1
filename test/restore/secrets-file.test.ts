// A headless server without a keychain (no session bus) that opted in to a secrets file: backup
// and restore both use that file, the restored dir's secrets land in it under the restored dir's
// own scope, and the printed next step carries --secrets-file so `sanad serve` finds them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { systemClock } from '../../src/clock.js';
import { ensureMasterSecrets } from '../../src/secrets/master-secrets.js';
import { dataDirScope } from '../../src/secrets/scope.js';
import { RESTIC_PASSPHRASE, VAULT_KEY } from '../../src/secrets/secret-store.js';
import { SecretsFileStore } from '../../src/secrets/secrets-file.js';
import { openStore, storePath } from '../../src/store/open.js';
import { field } from '../harness/api.js';
import { prepareDataDir, tempDir } from '../harness/data-dir.js';
import { runSanad } from '../harness/run-sanad.js';

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
