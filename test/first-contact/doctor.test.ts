// `sanad doctor` on a real data dir: all good (exit 0, ✓ lines), then restic missing, the keychain
// missing, a repository down (each ✗ with its fix, exit 1); and it never writes to a repository.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { addRepository } from '../../src/repository/repositories.js';
import { systemClock } from '../../src/clock.js';
import { openStore } from '../../src/store/open.js';
import { field, str } from '../harness/api.js';
import { prepareDataDir, tempDir } from '../harness/data-dir.js';
import { runSanad } from '../harness/run-sanad.js';
import { freePort, RestServer } from '../backup/run/rest-server.js';
import { fingerprint } from '../drill/kit.js';
import { Vault } from '../../src/secrets/vault.js';
import { KeychainStore } from '../../src/secrets/keychain.js';
import { dataDirScope } from '../../src/secrets/scope.js';
import { VAULT_KEY } from '../../src/secrets/secret-store.js';
import { defaultLocalRepository, storePath } from '../../src/files/data-dir-layout.js';

let rest: RestServer | null = null;
after(async () => rest?.stop());

type Check = { name: string; status: string; detail: string; fix: string | null };
function checksOf(stdout: string): Check[] {
  const list: unknown = field(JSON.parse(stdout), 'checks');
  assert.ok(Array.isArray(list));
  return list.map((c: unknown) => ({
    name: str(c, 'name'),
    status: str(c, 'status'),
    detail: str(c, 'detail'),
    fix: field(c, 'fix') === null ? null : str(c, 'fix'),
  }));
}
const find = (checks: Check[], name: string): Check => {
  const c = checks.find((x) => x.name === name);
  assert.ok(c, `a ${name} check in ${checks.map((x) => x.name).join(', ')}`);
  return c;
};

test('doctor: all good, then restic missing, the keychain missing, a repository down', async () => {
  const { dataDir } = await prepareDataDir();
  const port = String(await freePort());
  const d = ['--data-dir', dataDir];
  assert.equal((await runSanad(['backup', 'now', ...d])).code, 0);
  assert.equal((await runSanad(['drill', ...d])).code, 0);
  assert.equal((await runSanad(['recovery-kit', '--confirm', ...d])).code, 0);

  const before = fingerprint(defaultLocalRepository(dataDir));
  const good = await runSanad(['doctor', '--port', port, ...d]);
  assert.equal(good.code, 0, good.stdout + good.stderr);
  for (const name of ['node', 'restic', 'keychain', 'store', 'disk', 'port', 'repo:local', 'backup', 'drill', 'recovery_kit']) {
    assert.match(good.stdout, new RegExp(`^✓ ${name}: `, 'm'), `${name} passes:\n${good.stdout}`);
  }
  assert.deepEqual(fingerprint(defaultLocalRepository(dataDir)), before, 'doctor never writes to a repository');

  const noRestic = await runSanad(['doctor', '--json', '--port', port, ...d], { env: { SANAD_RESTIC: '/nonexistent/restic' } });
  assert.equal(noRestic.code, 1);
  const restic = find(checksOf(noRestic.stdout), 'restic');
  assert.equal(restic.status, 'fail');
  assert.match(restic.fix ?? '', /install restic/);

  const noBus = await runSanad(['doctor', '--json', '--port', port, ...d], { env: { DBUS_SESSION_BUS_ADDRESS: '', DISPLAY: '' } });
  assert.equal(noBus.code, 1);
  const keychain = find(checksOf(noBus.stdout), 'keychain');
  assert.equal(keychain.status, 'fail');
  assert.match(keychain.detail, /The OS keychain is not available/);
  assert.match(keychain.fix ?? '', /npm start/);

  rest = new RestServer(tempDir(), await freePort());
  await rest.start();
  const db = openStore(storePath(dataDir));
  const key = await new KeychainStore(dataDirScope(dataDir)).get(VAULT_KEY);
  assert.ok(key);
  addRepository(db, new Vault(db, Buffer.from(key, 'base64')), { name: 'nas', type: 'rest', location: rest.url }, systemClock);
  db.close();
  assert.equal((await runSanad(['backup', 'now', ...d])).code, 0);
  await rest.stop();
  const down = await runSanad(['doctor', '--json', '--port', port, ...d]);
  assert.equal(down.code, 1);
  const nas = find(checksOf(down.stdout), 'repo:nas');
  assert.equal(nas.status, 'fail', nas.detail);
  assert.match(nas.fix ?? '', /sanad repo test nas/);
  assert.equal(find(checksOf(down.stdout), 'repo:local').status, 'ok');
});
