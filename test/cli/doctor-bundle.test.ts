// `sanad doctor --bundle FILE`: the archive a person hands over holds the doctor's report, the
// versions, the settings and the log's last lines, and not one secret the test made: the data dir's
// vault key and backup passphrase, the hub token, a client token, a bearer header, an S3 secret key,
// a password in a URL, a live GUI login link, a session header and pairing codes, each written into
// the log on purpose. The archive is unpacked and every byte of it searched.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { extract } from 'tar';
import { systemClock, unixSeconds } from '../../src/clock.js';
import { ensureMasterSecrets } from '../../src/secrets/master-secrets.js';
import { dataDirScope } from '../../src/secrets/scope.js';
import { HUB_TOKEN } from '../../src/secrets/secret-store.js';
import { SecretsFileStore } from '../../src/secrets/secrets-file.js';
import { createClient } from '../../src/store/clients.js';
import { openStore } from '../../src/store/open.js';
import { field } from '../harness/api.js';
import { prepareDataDir, tempDir } from '../harness/data-dir.js';
import { runSanad } from '../harness/run-sanad.js';
import { storePath } from '../../src/files/data-dir-layout.js';

test('the diagnostics bundle holds the report, versions, settings and log lines, and no secret', async () => {
  const { dataDir } = await prepareDataDir();
  const file = join(tempDir('sanad-secrets-'), 'secrets.json');
  writeFileSync(file, '', { mode: 0o600 });
  const store = new SecretsFileStore(file, dataDirScope(dataDir));
  const db = openStore(storePath(dataDir));
  const master = await ensureMasterSecrets(db, store, systemClock);
  const { token } = createClient(db, 'laptop', ['responses:write'], unixSeconds(systemClock));
  db.close();
  const hubToken = 'hf_TestHubToken0123456789abcdef';
  await store.set(HUB_TOKEN, hubToken);

  const secrets = {
    vaultKey: master.vaultKey.toString('base64'),
    passphrase: master.resticPassphrase,
    hubToken,
    clientToken: token,
    bearer: 'eyJhbGciOiJIUzI1NiJ9.bearer-secret-value',
    s3Secret: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
    urlPassword: 'hunter2-in-a-url',
    loginCode: 'Zk3v9QxLpR2mT8wYbN4cJ6hF1sD7gA0eU5iO-_qWerT',
    sessionToken: 'n8Xq2LmV7pK4rT9wZb3Yc6Hf1Sd5Ga0Ej-_uIoPlMnB',
    pairingCode: 'K7QM-9XWP',
    jsonPairingCode: 'R4TZ-8HNV',
  };
  const log = join(tempDir('sanad-log-'), 'sanad.log');
  writeFileSync(
    log,
    [
      '{"level":"info","msg":"backup finished","generation":7}',
      `{"level":"debug","msg":"opened the vault","vault_key":"${secrets.vaultKey}"}`,
      `restic failed with RESTIC_PASSWORD=${secrets.passphrase} in its environment`,
      `pull retried; the hub answered 401 to ${secrets.hubToken}`,
      `a client sent Authorization: Bearer ${secrets.clientToken}`,
      `proxy said authorization: bearer ${secrets.bearer}`,
      `{"type":"s3","secret_access_key":"${secrets.s3Secret}"}`,
      `rest target https://backup:${secrets.urlPassword}@nas.local:8000/repo is down`,
      `open the GUI: http://127.0.0.1:7437/login?code=${secrets.loginCode}`,
      `{"msg":"restored","login_url":"http://127.0.0.1:7437/login?code=${secrets.loginCode}&next=%2F"}`,
      `request headers: x-sanad-session: ${secrets.sessionToken}`,
      `pairing code ${secrets.pairingCode} issued for a phone`,
      `{"pairing_code":"${secrets.jsonPairingCode}","scopes":["responses:write"]}`,
      '{"level":"info","msg":"the last line"}',
    ].join('\n'),
  );

  const out = join(tempDir('sanad-bundle-'), 'sanad-diagnostics.tar.gz');
  const ran = await runSanad(['doctor', '--bundle', out, '--log', log, '--data-dir', dataDir, '--secrets-file', file, '--json']);
  assert.equal(ran.code, 0, ran.stderr);
  const said: unknown = JSON.parse(ran.stdout);
  assert.deepEqual(field(said, 'files'), ['README.txt', 'doctor.json', 'versions.json', 'settings.json', 'log-1.txt']);
  assert.equal(statSync(out).mode & 0o777, 0o600, 'only its owner can read it');

  const unpacked = tempDir('sanad-unpacked-');
  mkdirSync(unpacked, { recursive: true });
  await extract({ file: out, cwd: unpacked });
  const all = readdirSync(unpacked)
    .map((name) => readFileSync(join(unpacked, name), 'utf8'))
    .join('\n');
  for (const [name, value] of Object.entries(secrets)) assert.ok(!all.includes(value), `${name} is not in the bundle`);

  const text = (name: string): string => readFileSync(join(unpacked, name), 'utf8');
  assert.match(text('log-1.txt'), /backup finished/, 'the log lines are there');
  assert.match(text('log-1.txt'), /the last line/);
  assert.match(text('log-1.txt'), /https:\/\/\[redacted\]@nas\.local:8000\/repo/, 'the URL stays readable without its password');
  assert.match(text('log-1.txt'), /\/login\?code=\[redacted\]&next=/, 'a login link stays readable without its code');
  const checks: unknown = JSON.parse(text('doctor.json'));
  assert.ok(Array.isArray(checks) && checks.some((c: unknown) => field(c, 'name') === 'store'), 'the doctor report');
  const versions: unknown = JSON.parse(text('versions.json'));
  assert.equal(field(versions, 'node'), process.versions.node);
  const settings: unknown = JSON.parse(text('settings.json'));
  assert.equal(field(settings, 'max_output_tokens_limit'), 8192, 'a setting named like a token is still a number');

  const again = await runSanad(['doctor', '--bundle', out, '--data-dir', dataDir, '--secrets-file', file]);
  assert.equal(again.code, 1);
  assert.match(again.stderr, /already exists; name a new file/);
});
