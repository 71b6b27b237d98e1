// The OS keychain: macOS Keychain, Windows Credential Manager, the Secret Service on Linux, through
// the library keyring-library.ts names. Service "Sanad", one account per secret and data dir
// ("vault-key@<scope>") — the same entries keytar made, so existing data dirs keep their keys.
import { fileURLToPath } from 'node:url';
import { KeychainUnavailableError } from './errors.js';
import { keychainHelper } from './keychain-helper.js';
import { keychainCall, type KeychainOp } from './keyring-library.js';
import { dataDirScope } from './scope.js';
import type { SecretStore } from './secret-store.js';

export const KEYCHAIN_SERVICE = 'Sanad';

function explain(err: unknown): KeychainUnavailableError {
  const message = err instanceof Error ? err.message : String(err);
  if (/D-Bus|DBUS|X11|org\.freedesktop/i.test(message)) {
    return new KeychainUnavailableError(
      process.env.DBUS_SESSION_BUS_ADDRESS
        ? `the Secret Service did not answer on the session bus: ${message}`
        : 'there is no D-Bus session bus, so no Secret Service',
    );
  }
  return new KeychainUnavailableError(message);
}

/** libsecret's words when the daemon it knew is gone (it never looks for a new one itself). */
const STALE = /was not provided by any \.service files|ServiceUnknown|disconnected|NoReply|Remote peer/i;
const CHILD = fileURLToPath(new URL('./keychain-child.js', import.meta.url));
/** False once this process's libsecret lost its daemon: from then on every call runs in a helper. */
let inProcess = true;

async function inHelper(op: KeychainOp, account: string): Promise<unknown> {
  const env: Record<string, string> = {
    SANAD_KEYCHAIN_OP: op.op,
    SANAD_KEYCHAIN_SERVICE: KEYCHAIN_SERVICE,
    SANAD_KEYCHAIN_ACCOUNT: account,
    ...(op.value !== undefined ? { SANAD_KEYCHAIN_VALUE: op.value } : {}),
  };
  for (const key of ['DBUS_SESSION_BUS_ADDRESS', 'DISPLAY', 'WAYLAND_DISPLAY', 'XDG_DATA_HOME', 'XDG_RUNTIME_DIR']) {
    const v = process.env[key];
    if (v !== undefined) env[key] = v;
  }
  const line = await keychainHelper()(CHILD, env, op.value !== undefined ? [op.value] : []);
  const answer: unknown = line === null ? null : JSON.parse(line);
  if (typeof answer !== 'object' || answer === null || !('ok' in answer)) throw new Error('the keychain helper gave no answer');
  if (answer.ok !== true) throw new Error('error' in answer && typeof answer.error === 'string' ? answer.error : 'the keychain helper failed');
  return 'value' in answer ? answer.value : null;
}

export class KeychainStore implements SecretStore {
  readonly kind = 'keychain';
  readonly description = 'the OS keychain';

  constructor(private readonly scope: string) {}

  private account(name: string): string {
    return `${name}@${this.scope}`;
  }

  /** In this process while libsecret's daemon is the one it knows; else in a fresh helper each time. */
  private async call(op: KeychainOp, name: string): Promise<unknown> {
    const account = this.account(name);
    if (inProcess) {
      try {
        return await keychainCall(op, KEYCHAIN_SERVICE, account);
      } catch (err) {
        if (!(err instanceof Error && STALE.test(err.message))) throw explain(err);
      }
    }
    try {
      const value = await inHelper(op, account);
      inProcess = false;
      return value;
    } catch (err) {
      throw explain(err);
    }
  }

  async get(name: string): Promise<string | null> {
    const value = await this.call({ op: 'get' }, name);
    if (typeof value === 'string') return value;
    // A locked keyring answers "nothing here" too, which would read as a lost secret. Only a write
    // tells the two apart (reads of a locked collection are silent), so an absent answer is checked.
    if (await this.locked())
      throw new KeychainUnavailableError(
        "the keyring that holds Sanad's secrets is locked; unlock it (log in to the desktop session, or unlock it in your keyring manager)",
      );
    return null;
  }

  private async locked(): Promise<boolean> {
    const probe = 'lock-probe';
    try {
      await this.call({ op: 'set', value: 'probe' }, probe);
    } catch (err) {
      if (err instanceof Error && /locked/i.test(err.message)) return true;
      throw err;
    }
    await this.call({ op: 'delete' }, probe);
    return false;
  }

  async set(name: string, value: string): Promise<void> {
    await this.call({ op: 'set', value }, name);
  }

  async delete(name: string): Promise<boolean> {
    return (await this.call({ op: 'delete' }, name)) === true;
  }

  async probe(): Promise<void> {
    await this.get('probe');
  }

  forDataDir(dataDir: string): SecretStore {
    return new KeychainStore(dataDirScope(dataDir));
  }
}
