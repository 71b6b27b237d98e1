#!/usr/bin/env node
// Signing an AppImage update for the publisher (electron/logic/update-signature.ts checks it):
//   node scripts/sign-update.mjs keygen PRIVATE.pem build/update-keys/NAME.pub
//     makes the publisher's Ed25519 key pair once: the private half (0600) stays with whoever
//     publishes, off this repository; the public half is committed and shipped in the app.
//   node scripts/sign-update.mjs sign Sanad-X.AppImage PRIVATE.pem
//     writes Sanad-X.AppImage.sig beside it (the signature of its SHA-512, base64): upload it to
//     the feed with the AppImage and latest-linux.yml.
import { createHash, createPrivateKey, generateKeyPairSync, sign } from 'node:crypto';
import { Buffer } from 'node:buffer';
import { createReadStream, existsSync, readFileSync, writeFileSync } from 'node:fs';

const [command, a, b] = process.argv.slice(2);
const fail = (message) => {
  console.error(message);
  process.exit(2);
};

if (command === 'keygen' && a && b) {
  if (existsSync(a)) fail(`${a} already exists; choose a new file for the private key.`);
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  writeFileSync(a, privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600, flag: 'wx' });
  writeFileSync(b, publicKey.export({ type: 'spki', format: 'pem' }));
  console.log(`Private key: ${a} (keep it off this repository). Public key: ${b} (commit it; the app trusts it).`);
} else if (command === 'sign' && a && b) {
  const hash = createHash('sha512');
  for await (const chunk of createReadStream(a)) hash.update(chunk);
  const sha512 = hash.digest('base64');
  const signature = sign(null, Buffer.from(sha512, 'utf8'), createPrivateKey(readFileSync(b)));
  writeFileSync(`${a}.sig`, signature.toString('base64'));
  console.log(`${a}.sig written (sha512 ${sha512.slice(0, 16)}…).`);
} else {
  fail('Usage: node scripts/sign-update.mjs keygen PRIVATE.pem build/update-keys/NAME.pub | sign FILE PRIVATE.pem');
}
