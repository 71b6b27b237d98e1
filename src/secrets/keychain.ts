// The OS keychain through keytar: macOS Keychain, Windows Credential Vault, the Secret Service on
// Linux. Service "Sanad", one account per secret and data dir ("vault-key@<scope>").
import keytar from 'keytar';
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

export class KeychainStore implements SecretStore {
  readonly kind = 'keychain';
  readonly description = 'the OS keychain';

  constructor(private readonly scope: string) {}

  private account(name: string): string {
    return `${name}@${this.scope}`;
  }

  async get(name: string): Promise<string | null> {
    return keytar.getPassword(KEYCHAIN_SERVICE, this.account(name)).catch((err: unknown) => {
      throw explain(err);
    });
  }

  async set(name: string, value: string): Promise<void> {
    await keytar.setPassword(KEYCHAIN_SERVICE, this.account(name), value).catch((err: unknown) => {
      throw explain(err);
    });
  }

  async delete(name: string): Promise<boolean> {
    return keytar.deletePassword(KEYCHAIN_SERVICE, this.account(name)).catch((err: unknown) => {
      throw explain(err);
    });
  }

  async probe(): Promise<void> {
    await this.get('probe');
  }

  forDataDir(dataDir: string): SecretStore {
    return new KeychainStore(dataDirScope(dataDir));
  }
}
