// `sanad secrets move-to-keychain` killed (SIGKILL) right after each of its steps: every time the
// data dir still starts and opens every secret; running the command again finishes the move; and
// afterwards no secret is left in any file: not in the secrets file, not in the data dir.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { KeychainStore } from '../../src/secrets/keychain.js';
import { openSecretStore } from '../../src/secrets/open-secret-store.js';
import { dataDirScope } from '../../src/secrets/scope.js';
import { RESTIC_PASSPHRASE, VAULT_KEY } from '../../src/secrets/secret-store.js';
import { createSecretsFile } from '../../src/secrets/secrets-location.js';
import { prepareDataDir, tempDir } from '../harness/data-dir.js';
import { runSanad } from '../harness/run-sanad.js';
import { startServiceProcess } from '../harness/service-process.js';

const CHILD = fileURLToPath(new URL('./fixtures/move-child.js', import.meta.url));

function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    return e.isDirectory() ? filesUnder(p) : e.isFile() ? [p] : [];
  });
}

async function killedAfter(dataDir: string, file: string, step: string): Promise<void> {
  const child = spawn(process.execPath, [CHILD, dataDir, file, step], { stdio: 'ignore' });
  const signal = await new Promise<NodeJS.Signals | null>((r) => child.once('exit', (_code, sig) => r(sig)));
  assert.equal(signal, 'SIGKILL', `the move was killed after ${step}`);
}

for (const step of ['copied', 'verified', 'recorded', 'removed']) {
  test(`move-to-keychain SIGKILLed after "${step}": the data dir opens every secret, and a second run finishes`, async () => {
    const { dataDir, adminToken } = await prepareDataDir();
    const file = join(tempDir('sanad-secrets-'), 'secrets');
    // The opt-in takes only an existing 0600 file; the first command that needs secrets makes them.
    createSecretsFile(file);
    const made = await runSanad(['recovery-kit', '--json', '--data-dir', dataDir, '--secrets-file', file]);
    assert.equal(made.code, 0, made.stderr);
    const before = await openSecretStore(dataDir, file);
    const key = await before.get(VAULT_KEY);
    const pass = await before.get(RESTIC_PASSPHRASE);
    assert.ok(key && pass);

    await killedAfter(dataDir, file, step);
    // Whatever was interrupted: the store that the data dir names holds both secrets, unchanged.
    const found = await openSecretStore(dataDir, undefined);
    assert.equal(await found.get(VAULT_KEY), key, `vault key after a kill at ${step}`);
    assert.equal(await found.get(RESTIC_PASSPHRASE), pass, `passphrase after a kill at ${step}`);
    const service = await startServiceProcess(dataDir, adminToken);
    assert.equal((await service.api.get('/admin/recovery-kit')).status, 200);
    await service.stop();

    const finish = await runSanad(['secrets', 'move-to-keychain', '--json', '--data-dir', dataDir]);
    assert.equal(finish.code, 0, finish.stderr);
    const keychain = new KeychainStore(dataDirScope(dataDir));
    assert.equal(await keychain.get(VAULT_KEY), key);
    assert.equal(await keychain.get(RESTIC_PASSPHRASE), pass);
    assert.equal((await openSecretStore(dataDir, undefined)).kind, 'keychain');
    for (const path of [file, ...filesUnder(dataDir)]) {
      if (!existsSync(path) || statSync(path).size > 50_000_000) continue;
      const bytes = readFileSync(path);
      for (const secret of [key, pass]) assert.ok(!bytes.includes(secret), `${secret.slice(0, 4)}… is not in ${path}`);
    }
    assert.ok(!existsSync(file), 'the secrets file held only this data dir, so it is gone');
  });
}
