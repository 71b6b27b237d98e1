// The publisher's signature an AppImage update must carry. electron-updater checks an AppImage only
// against the SHA-512 its feed lists, and whoever controls the feed writes that too; so a
// downloaded AppImage is offered only when `<file>.sig`, beside it in the feed, is an Ed25519
// signature of that SHA-512 (base64, as the feed writes it) by a key the app ships in
// build/update-keys/*.pub. With no key shipped, no AppImage update is ever offered.
import { createHash, createPublicKey, verify } from 'node:crypto';
import { createReadStream, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Where the app's trusted keys are, under its own folder (app.getAppPath()). */
export const UPDATE_KEYS_DIR = join('build', 'update-keys');
/** An Ed25519 signature, base64: 88 characters; anything much longer is not one. */
export const MAX_SIGNATURE_CHARS = 256;

/** The PEM public keys in `dir` (none when it is missing). */
export function readTrustedKeys(dir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => n.endsWith('.pub'));
  } catch {
    return [];
  }
  return names.sort().map((n) => readFileSync(join(dir, n), 'utf8'));
}

/** A file's SHA-512 in base64, read as a stream (an AppImage is hundreds of MB). */
export async function sha512Base64(file: string): Promise<string> {
  const hash = createHash('sha512');
  // A stream without an encoding yields Buffers; its iterator is typed loosely.
  for await (const chunk of createReadStream(file)) {
    if (!Buffer.isBuffer(chunk)) throw new Error(`${file} did not read as bytes`);
    hash.update(chunk);
  }
  return hash.digest('base64');
}

/** Whether `signature` (base64) signs the text `sha512` with one of `keys` (Ed25519 PEMs). */
export function signedByTrustedKey(sha512: string, signature: string, keys: readonly string[]): boolean {
  // Exactly 64 bytes in canonical base64: Node's decoder would skip what follows a padding.
  const text = signature.trim();
  if (!/^[A-Za-z0-9+/]{86}==$/.test(text)) return false;
  const sig = Buffer.from(text, 'base64');
  return keys.some((pem) => {
    try {
      const key = createPublicKey(pem);
      return key.asymmetricKeyType === 'ed25519' && verify(null, Buffer.from(sha512, 'utf8'), key, sig);
    } catch {
      return false;
    }
  });
}
