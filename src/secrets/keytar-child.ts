// One keychain call in a fresh process, for KeychainStore (keychain.ts). libsecret keeps the
// Secret Service it first talked to for the life of a process: once that daemon stops, every
// later call in the same process fails even after a new daemon answers. A short-lived child has
// its own libsecret, so a running service can use the keychain again without a restart.
// Protocol: the operation in the environment (the value too: never argv), one JSON line out.
import keytar from 'keytar';

async function main(): Promise<unknown> {
  const op = process.env.SANAD_KEYTAR_OP;
  const service = process.env.SANAD_KEYTAR_SERVICE ?? '';
  const account = process.env.SANAD_KEYTAR_ACCOUNT ?? '';
  if (op === 'get') return keytar.getPassword(service, account);
  if (op === 'set') return keytar.setPassword(service, account, process.env.SANAD_KEYTAR_VALUE ?? '').then(() => null);
  if (op === 'delete') return keytar.deletePassword(service, account);
  throw new Error(`unknown keychain operation ${String(op)}`);
}

main().then(
  (value) => process.stdout.write(`${JSON.stringify({ ok: true, value })}\n`),
  (err: unknown) => process.stdout.write(`${JSON.stringify({ ok: false, error: err instanceof Error ? err.message : String(err) })}\n`),
);
