// The recovery kit: it carries the passphrase that is in the keychain, the CLI writes it 0600 and
// never over a file, and /health/ready warns until the user confirms it is stored off the machine.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { KeychainStore } from '../../src/secrets/keychain.js';
import { dataDirScope } from '../../src/secrets/scope.js';
import { RESTIC_PASSPHRASE } from '../../src/secrets/secret-store.js';
import { field, str } from '../harness/api.js';
import { startTestAppliance, type TestAppliance } from '../harness/appliance.js';
import { runSanad } from '../harness/run-sanad.js';

let t: TestAppliance | null = null;
after(async () => t?.close());

test('the kit holds the keychain passphrase; health warns until it is confirmed', async () => {
  t = await startTestAppliance();
  const passphrase = await new KeychainStore(dataDirScope(t.dataDir)).get(RESTIC_PASSPHRASE);
  assert.ok(passphrase);

  const before = await t.api.get('/health/ready');
  assert.equal(before.status, 200, 'a warning does not make the service unready');
  assert.equal(field(before.body, 'checks', 'recovery_kit', 'ok'), false);
  assert.equal(field(before.body, 'checks', 'recovery_kit', 'severity'), 'warning');
  assert.equal(field(before.body, 'checks', 'keychain', 'ok'), true);
  assert.ok(!before.text.includes(passphrase), 'health never shows the passphrase');

  const kit = await t.api.get('/admin/recovery-kit');
  assert.equal(str(kit.body, 'restic_passphrase'), passphrase);
  assert.ok(str(kit.body, 'text').includes(passphrase));
  assert.equal(field(kit.body, 'confirmed_at'), null);
  assert.match(str(kit.body, 'text'), new RegExp(`- local: ${t.dataDir}/backups/restic`), 'the kit names the local repository');

  // An offsite repository appears with where it is and which credential to bring, never the secret.
  const s3Secret = 'KIT-S3-SECRET-0123456789abcdef';
  const added = await t.api.post('/admin/repositories', {
    name: 'r2',
    type: 's3',
    location: 'https://example.r2.cloudflarestorage.com/bucket/sanad',
    options: { access_key_id: 'AKIDKIT', region: 'auto' },
    secret: s3Secret,
  });
  assert.equal(added.status, 201, added.text);
  const kit2 = await t.api.get('/admin/recovery-kit');
  assert.match(
    str(kit2.body, 'text'),
    /- r2: s3 https:\/\/example\.r2\.cloudflarestorage\.com\/bucket\/sanad \(access key id AKIDKIT; region auto; secret key: from your storage provider\)/,
  );
  assert.ok(!kit2.text.includes(s3Secret), 'the kit never carries an offsite secret');
  assert.equal((await t.api.withToken(null).get('/admin/recovery-kit')).status, 401, 'admin only');

  assert.equal((await t.api.post('/admin/recovery-kit/confirm')).status, 200);
  const afterConfirm = await t.api.get('/health/ready');
  assert.equal(field(afterConfirm.body, 'checks', 'recovery_kit', 'ok'), true);
  assert.equal(typeof field((await t.api.get('/admin/status')).body, 'secrets', 'recovery_kit_confirmed_at'), 'number');
});

test('sanad recovery-kit --out writes the kit 0600 and never over an existing file', async () => {
  const app = await startTestAppliance();
  try {
    const out = join(app.dataDir, '..', `kit-${Date.now()}.txt`);
    const r = await runSanad(['recovery-kit', '--data-dir', app.dataDir, '--out', out]);
    assert.equal(r.code, 0, r.stderr);
    const passphrase = await new KeychainStore(dataDirScope(app.dataDir)).get(RESTIC_PASSPHRASE);
    assert.ok(passphrase && readFileSync(out, 'utf8').includes(passphrase));
    assert.equal(statSync(out).mode & 0o777, 0o600);
    assert.ok(!r.stdout.includes(passphrase) && !r.stderr.includes(passphrase), 'with --out nothing is printed');
    writeFileSync(out, 'keep me');
    const again = await runSanad(['recovery-kit', '--data-dir', app.dataDir, '--out', out]);
    assert.equal(again.code, 1);
    assert.match(again.stderr, /already exists/);
    assert.equal(readFileSync(out, 'utf8'), 'keep me');
    const confirm = await runSanad(['recovery-kit', '--data-dir', app.dataDir, '--confirm', '--json']);
    assert.equal(confirm.code, 0, confirm.stderr);
    assert.equal(field((await app.api.get('/health/ready')).body, 'checks', 'recovery_kit', 'ok'), true, 'the CLI confirmation reaches the running service');
  } finally {
    await app.close();
  }
});
