// The AppImage update's detached signature (electron/logic/update-signature.ts): only the SHA-512
// signed by a key the app ships passes; another key, another file, a cut or padded signature, a key
// of another kind and no key at all fail closed. scripts/sign-update.mjs makes what passes.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { generateKeyPairSync, sign } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import { readTrustedKeys, sha512Base64, signedByTrustedKey } from '../../electron/logic/update-signature.js';
import { tempDir } from '../harness/data-dir.js';

const SCRIPT = fileURLToPath(new URL('../../../scripts/sign-update.mjs', import.meta.url));

test('only the SHA-512 signed by a shipped key passes; everything else fails closed', async () => {
  const dir = tempDir('sanad-sig-');
  const keys = join(dir, 'build', 'update-keys');
  mkdirSync(keys, { recursive: true });
  const file = join(dir, 'Sanad.AppImage');
  writeFileSync(file, 'the new version');
  execFileSync(process.execPath, [SCRIPT, 'keygen', join(dir, 'publisher.pem'), join(keys, 'publisher.pub')]);
  execFileSync(process.execPath, [SCRIPT, 'sign', file, join(dir, 'publisher.pem')]);
  const signature = readFileSync(`${file}.sig`, 'utf8');
  const trusted = readTrustedKeys(keys);
  assert.equal(trusted.length, 1);
  const sha = await sha512Base64(file);
  assert.equal(signedByTrustedKey(sha, signature, trusted), true, 'the publisher signed it');

  const other = generateKeyPairSync('ed25519');
  assert.equal(signedByTrustedKey(sha, sign(null, Buffer.from(sha), other.privateKey).toString('base64'), trusted), false, "another key's signature");
  writeFileSync(file, 'a swapped file');
  assert.equal(signedByTrustedKey(await sha512Base64(file), signature, trusted), false, 'another file');
  assert.equal(signedByTrustedKey(sha, signature.slice(0, 40), trusted), false, 'a cut signature');
  assert.equal(signedByTrustedKey(sha, `${signature}AAAA`, trusted), false, 'a padded signature');
  const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey.export({ type: 'spki', format: 'pem' }).toString();
  assert.equal(signedByTrustedKey(sha, signature, [rsa, 'not a key']), false, 'keys of another kind');
  assert.equal(signedByTrustedKey(sha, signature, readTrustedKeys(join(dir, 'nowhere'))), false, 'no key shipped: nothing passes');
});
