// The OS keychain through keytar: macOS Keychain, Windows Credential Vault, the Secret Service on
// Linux. Service "Sanad", one account per secret and data dir ("vault-key@<scope>").
import keytar from 'keytar';
import { fileURLToPath } from 'node:url';
import { runChild } from '../process/spawn.js';
import { KeychainUnavailableError } from './errors.js';
import { dataDirScope } from './scope.js';
import type { SecretStore } from './secret-store.js';

export const KEYCHAIN_SERVICE = 'Sanad';

function explain(err: unknown): KeychainUnavailableError {
  const message = err instanceof Error ? err.message : String(err);
  if (/D-Bus|DBUS|X11|org\.freedesktop/i.test(message)) {
    return new KeychainUnavailableError(
      process.env.DBUS_SESSION_BUS_ADDRESS ? `the Secret Service did not answer on the session bus: ${message}` : 'there is no D-Bus session bus, so no Secret Service',
    );
  }
  return new KeychainUnavailableError(message);
}

/** libsecret's words when the daemon it knew is gone (it never looks for a new one itself). */
const STALE = /was not provided by any \.service files|ServiceUnknown|disconnected|NoReply|Remote peer/i;
const CHILD = fileURLToPath(new URL('./keytar-child.js', import.meta.url));
/** False once this process's libsecret lost its daemon: from then on every call runs in a child. */
let inProcess = true;

type Op = { op: 'get'; value?: undefined } | { op: 'set'; value: string } | { op: 'delete'; value?: undefined };

async function inChild(op: Op, account: string): Promise<unknown> {
  const env: Record<string, string> = {
    SANAD_KEYTAR_OP: op.op, SANAD_KEYTAR_SERVICE: KEYCHAIN_SERVICE, SANAD_KEYTAR_ACCOUNT: account,
    // Under Electron, process.execPath is the app: run it as plain Node for this one call.
    ELECTRON_RUN_AS_NODE: '1',
    ...(op.value !== undefined ? { SANAD_KEYTAR_VALUE: op.value } : {}),
  };
  for (const key of ['DBUS_SESSION_BUS_ADDRESS', 'DISPLAY', 'WAYLAND_DISPLAY', 'XDG_DATA_HOME']) {
    const v = process.env[key];
    if (v !== undefined) env[key] = v;
  }
  let answer: unknown = null;
  await runChild({
    command: process.execPath, args: [CHILD], env, ...(op.value !== undefined ? { secrets: [op.value] } : {}),
    onStdoutLine: (line) => {
      answer = JSON.parse(line);
      return true;
    },
  });
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

  /** In this process while libsecret's daemon is the one it knows; else in a fresh child each time. */
  private async call(op: Op, name: string, here: () => Promise<unknown>): Promise<unknown> {
    if (inProcess) {
      try {
        return await here();
      } catch (err) {
        if (!(err instanceof Error && STALE.test(err.message))) throw explain(err);
      }
    }
    try {
      const value = await inChild(op, this.account(name));
      inProcess = false;
      return value;
    } catch (err) {
      throw explain(err);
    }
  }

  async get(name: string): Promise<string | null> {
    const value = await this.call({ op: 'get' }, name, () => keytar.getPassword(KEYCHAIN_SERVICE, this.account(name)));
    if (typeof value === 'string') return value;
    // A locked keyring answers "nothing here" too, which would read as a lost secret. Only a write
    // tells the two apart (reads of a locked collection are silent), so an absent answer is checked.
    if (await this.locked()) throw new KeychainUnavailableError('the keyring that holds Sanad\'s secrets is locked; unlock it (log in to the desktop session, or unlock it in your keyring manager)');
    return null;
  }

  private async locked(): Promise<boolean> {
    const probe = 'lock-probe';
    try {
      await this.call({ op: 'set', value: 'probe' }, probe, () => keytar.setPassword(KEYCHAIN_SERVICE, this.account(probe), 'probe'));
    } catch (err) {
      if (err instanceof Error && /locked/i.test(err.message)) return true;
      throw err;
    }
    await this.call({ op: 'delete' }, probe, () => keytar.deletePassword(KEYCHAIN_SERVICE, this.account(probe)));
    return false;
  }

  async set(name: string, value: string): Promise<void> {
    await this.call({ op: 'set', value }, name, () => keytar.setPassword(KEYCHAIN_SERVICE, this.account(name), value));
  }

  async delete(name: string): Promise<boolean> {
    return (await this.call({ op: 'delete' }, name, () => keytar.deletePassword(KEYCHAIN_SERVICE, this.account(name)))) === true;
  }

  async probe(): Promise<void> {
    await this.get('probe');
  }

  forDataDir(dataDir: string): SecretStore {
    return new KeychainStore(dataDirScope(dataDir));
  }
}
