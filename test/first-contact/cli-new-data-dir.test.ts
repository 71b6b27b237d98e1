// A CLI user on a new data dir: `token create` then `backup now` works (the backup makes the
// master secrets, as serve would on its first start), and a data dir that had secrets and lost
// them from the keychain is still refused with the clear sentence; nothing new is made over it.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { KeychainStore } from '../../src/secrets/keychain.js';
import { dataDirScope } from '../../src/secrets/scope.js';
import { RESTIC_PASSPHRASE, VAULT_KEY } from '../../src/secrets/secret-store.js';
import { field } from '../harness/api.js';
import { tempDir } from '../harness/data-dir.js';
import { runSanad } from '../harness/run-sanad.js';

test('token create then backup now on a new data dir succeeds; a data dir that lost its keychain entries is refused', async () => {
  const dataDir = join(tempDir('sanad-cli-'), 'data');
  const token = await runSanad(['token', 'create', '--name', 'me', '--scopes', 'admin', '--data-dir', dataDir, '--json']);
  assert.equal(token.code, 0, token.stderr);
  const backup = await runSanad(['backup', 'now', '--data-dir', dataDir, '--json']);
  assert.equal(backup.code, 0, backup.stderr);
  assert.equal(typeof field(JSON.parse(backup.stdout), 'generation'), 'number');
  assert.ok(!/restic failed/.test(backup.stderr), `nothing about the new repository reads as a failure: ${backup.stderr}`);

  const keychain = new KeychainStore(dataDirScope(dataDir));
  const key = await keychain.get(VAULT_KEY);
  assert.ok(key, 'the backup made the master secrets in the keychain');
  await keychain.delete(RESTIC_PASSPHRASE);
  const lost = await runSanad(['backup', 'now', '--data-dir', dataDir]);
  assert.equal(lost.code, 1);
  assert.equal(lost.stderr.trim().split('\n').length, 1, lost.stderr);
  assert.match(lost.stderr, /^sanad: The backup \(restic\) passphrase of this data dir is missing from the OS keychain/);
  assert.match(lost.stderr, /recovery kit/);
  assert.equal(await keychain.get(RESTIC_PASSPHRASE), null, 'no new passphrase was made over existing data');
  assert.equal(await keychain.get(VAULT_KEY), key);
});

test('a taken port is said plainly, with --port', async () => {
  const { createServer } = await import('node:net');
  const srv = createServer();
  const port = await new Promise<number>((resolve) =>
    srv.listen(0, '127.0.0.1', () => {
      const a = srv.address();
      resolve(typeof a === 'object' && a ? a.port : 0);
    }),
  );
  try {
    const dataDir = join(tempDir('sanad-port-'), 'data');
    const r = await runSanad(['serve', '--port', String(port), '--data-dir', dataDir]);
    assert.equal(r.code, 1);
    assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
    assert.match(r.stderr, new RegExp(`^sanad: Port ${port} on 127\\.0\\.0\\.1 is already taken by another program; .*--port N`));
    assert.ok(!/EADDRINUSE|report it/.test(r.stderr), r.stderr);
  } finally {
    srv.close();
  }
});
