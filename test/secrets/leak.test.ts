// No secret ever lands in the data dir in plain text, in the log, or in the service's argv: a full
// session (serve, tokens, a vault secret, a generation, the recovery kit, a vault-key rotation, a
// backup to the local repository and to a password-protected REST offsite) and then a byte search
// for every secret value in the data dir, the log, the service's argv and every restic argv.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { KeychainStore } from '../../src/secrets/keychain.js';
import { dataDirScope } from '../../src/secrets/scope.js';
import { RESTIC_PASSPHRASE, VAULT_KEY } from '../../src/secrets/secret-store.js';
import { field, str, waitFor, noOpenRun } from '../harness/api.js';
import { prepareDataDir, tempDir } from '../harness/data-dir.js';
import { freePort, RestServer } from '../backup/run/rest-server.js';
import { resticSpy } from '../backup/run/restic-spy.js';
import { startServiceProcess, type ServiceProcess } from '../harness/service-process.js';

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    return statSync(full).isDirectory() ? filesUnder(full) : [full];
  });
}

let service: ServiceProcess | null = null;
let rest: RestServer | null = null;
after(async () => {
  await service?.kill();
  await rest?.stop();
});

test('a full session leaves no secret in the data dir, the log or argv', async () => {
  const prepared = await prepareDataDir();
  const restPassword = 'REST-PASSWORD-0123456789-klmnopqrst';
  rest = new RestServer(tempDir('sanad-leak-rest-'), await freePort(), ['--user', 'sanad', '--pass', restPassword]);
  await rest.start();
  const spy = await resticSpy();
  service = await startServiceProcess(prepared.dataDir, prepared.adminToken, { SANAD_LOG: 'debug', SANAD_RESTIC: spy.path });
  const api = service.api;
  const cmdline = readFileSync(`/proc/${service.child.pid ?? 0}/cmdline`, 'utf8');

  const client = await api.post('/admin/clients', { name: 'leak-check', scopes: ['responses:write'] });
  assert.equal(client.status, 201);
  const clientToken = str(client.body, 'token');
  const offsite = 'S3-SECRET-ACCESS-KEY-0123456789-abcdefghij';
  assert.equal((await api.request('PUT', '/admin/secrets/offsite.r2.secret', { value: offsite })).status, 200);
  const listed = await api.get('/admin/secrets');
  assert.ok(!listed.text.includes(offsite), 'the API lists names, never values');
  const gen = await api.withToken(clientToken).post('/v1/responses', { model: 'tiny', input: 'hello', max_output_tokens: 8 });
  assert.equal(gen.status, 200);
  const kit = await api.get('/admin/recovery-kit');
  const passphrase = str(kit.body, 'restic_passphrase');
  const store = new KeychainStore(dataDirScope(prepared.dataDir));
  const oldKey = await store.get(VAULT_KEY);
  assert.equal((await api.post('/admin/vault/rotate-key')).status, 200);
  const newKey = await store.get(VAULT_KEY);
  assert.equal(await store.get(RESTIC_PASSPHRASE), passphrase);
  assert.ok(oldKey && newKey && oldKey !== newKey);
  const repo = await api.post('/admin/repositories', { name: 'offsite', type: 'rest', location: rest.url, options: { user: 'sanad' }, secret: restPassword });
  assert.equal(repo.status, 201, repo.text);
  assert.equal((await api.post('/admin/backups')).status, 202);
  const done = await waitFor(
    async () => {
      const status = await api.get('/admin/backups/status');
      return (await noOpenRun(api, 'backup')) && field(status.body, 'last_run') !== null ? status : undefined;
    },
    120_000,
    'the backup to finish',
  );
  assert.equal(field(done.body, 'last_run', 'status'), 'ok', done.text);
  const resticArgv = spy.argv();
  assert.ok(
    resticArgv.some((a) => a.includes('backup')),
    'restic ran a backup',
  );
  await service.stop();

  const secrets: Record<string, string> = {
    'admin token': prepared.adminToken,
    'client token': clientToken,
    'offsite secret': offsite,
    'restic passphrase': passphrase,
    'old vault key (base64)': oldKey,
    'new vault key (base64)': newKey,
    'old vault key (hex)': Buffer.from(oldKey, 'base64').toString('hex'),
    'new vault key (hex)': Buffer.from(newKey, 'base64').toString('hex'),
    'REST password': restPassword,
  };
  const log = service.stderr();
  assert.ok(log.length > 0, 'the debug log was captured');
  const files = filesUnder(prepared.dataDir);
  assert.ok(files.some((f) => f.endsWith('sanad.db')));
  for (const [what, value] of Object.entries(secrets)) {
    assert.ok(!log.includes(value), `${what} is not in the log`);
    assert.ok(!cmdline.includes(value), `${what} is not in argv`);
    for (const argv of resticArgv) assert.ok(!argv.includes(value), `${what} is not in a restic argv`);
    for (const file of files) {
      const bytes = readFileSync(file);
      assert.equal(bytes.indexOf(Buffer.from(value, 'utf8')), -1, `${what} is not in ${file}`);
    }
    // The raw key bytes must not be in the store either.
    if (what.includes('(hex)')) {
      for (const file of files) assert.equal(readFileSync(file).indexOf(Buffer.from(value, 'hex')), -1, `raw ${what} is not in ${file}`);
    }
  }
});
