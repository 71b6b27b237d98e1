// The one place that names the keychain library: @zowe/secrets-for-zowe-sdk, a maintained,
// keytar-compatible rewrite (macOS Keychain, Windows Credential Manager, libsecret's Secret Service
// on Linux). It reads and writes the very entries keytar made (same service/account attributes on
// every OS), so nothing a person already has moves; docs/development.md says why it was chosen.
// Loaded on first use: a machine without libsecret then meets "no keychain" (and the secrets-file
// opt-in), not a CLI that cannot start; and `sanad --version` never pays for it.
export type KeychainOp = { op: 'get'; value?: undefined } | { op: 'set'; value: string } | { op: 'delete'; value?: undefined };

interface Keyring {
  getPassword(service: string, account: string): Promise<string | null>;
  setPassword(service: string, account: string, password: string): Promise<void>;
  deletePassword(service: string, account: string): Promise<boolean>;
}

let loaded: Promise<Keyring> | null = null;

function keyring(): Promise<Keyring> {
  loaded ??= import('@zowe/secrets-for-zowe-sdk').then(
    (m) => m.keyring,
    (err: unknown) => {
      loaded = null;
      // libsecret-1-0 missing (ldd names it) reads as "no keychain here", with the library's words.
      throw new Error(`the keychain library could not load: ${err instanceof Error ? err.message : String(err)}`);
    },
  );
  return loaded;
}

/** One call on the OS keychain in this process: get → string | null, set → null, delete → boolean. */
export async function keychainCall(op: KeychainOp, service: string, account: string): Promise<string | boolean | null> {
  const k = await keyring();
  if (op.op === 'get') return k.getPassword(service, account);
  if (op.op === 'set') return k.setPassword(service, account, op.value).then(() => null);
  return k.deletePassword(service, account);
}
