// A secret store that says when it stops answering and when it answers again. The keychain can go
// away under a running service (the Secret Service daemon stops, the login keyring is locked):
// what needs a secret fails with the keychain's own sentence, the appliance raises an alert, and
// the first call that works again clears it, without a restart. Inference and reads never ask
// the keychain (the vault key is held in memory), so they go on meanwhile.
import { KeychainUnavailableError } from './errors.js';
import type { SecretStore } from './secret-store.js';

/** The alert a running appliance raises while its keychain does not answer. */
export const KEYCHAIN_ALERT = 'secrets.keychain_unavailable';

export interface StoreWatch {
  unavailable(err: KeychainUnavailableError): void;
  available(): void;
}

export class WatchedSecretStore implements SecretStore {
  readonly kind: SecretStore['kind'];
  readonly description: string;
  readonly path?: string;

  constructor(
    private readonly inner: SecretStore,
    private readonly watch: StoreWatch,
  ) {
    this.kind = inner.kind;
    this.description = inner.description;
    if (inner.path !== undefined) this.path = inner.path;
  }

  private async seen<T>(call: () => Promise<T>): Promise<T> {
    try {
      const value = await call();
      this.watch.available();
      return value;
    } catch (err) {
      if (err instanceof KeychainUnavailableError) this.watch.unavailable(err);
      throw err;
    }
  }

  get(name: string): Promise<string | null> {
    return this.seen(() => this.inner.get(name));
  }

  set(name: string, value: string): Promise<void> {
    return this.seen(() => this.inner.set(name, value));
  }

  delete(name: string): Promise<boolean> {
    return this.seen(() => this.inner.delete(name));
  }

  probe(): Promise<void> {
    return this.seen(() => this.inner.probe());
  }

  forDataDir(dataDir: string): SecretStore {
    if (!this.inner.forDataDir) throw new Error('this secret store cannot serve another data dir');
    return this.inner.forDataDir(dataDir);
  }
}
