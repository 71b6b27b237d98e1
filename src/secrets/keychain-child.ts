// One keychain call in a fresh process, for KeychainStore (keychain.ts). libsecret keeps the
// Secret Service it first talked to for the life of a process: once that daemon stops, every
// later call in the same process fails even after a new daemon answers. A short-lived process has
// its own libsecret, so a running service can use the keychain again without a restart.
// It runs as a plain Node child (`sanad serve`) or as an Electron utility process (the desktop app).
// Protocol: the operation in the environment (the value too: never argv), one JSON line out.
import { keychainCall, type KeychainOp } from './keyring-library.js';

function requested(): KeychainOp {
  const op = process.env.SANAD_KEYCHAIN_OP;
  if (op === 'get' || op === 'delete') return { op };
  if (op === 'set') return { op, value: process.env.SANAD_KEYCHAIN_VALUE ?? '' };
  throw new Error(`unknown keychain operation ${String(op)}`);
}

async function main(): Promise<unknown> {
  return keychainCall(requested(), process.env.SANAD_KEYCHAIN_SERVICE ?? '', process.env.SANAD_KEYCHAIN_ACCOUNT ?? '');
}

main().then(
  (value) => process.stdout.write(`${JSON.stringify({ ok: true, value })}\n`),
  (err: unknown) => process.stdout.write(`${JSON.stringify({ ok: false, error: err instanceof Error ? err.message : String(err) })}\n`),
);
