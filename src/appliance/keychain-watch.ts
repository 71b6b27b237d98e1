// Turns the secret store's "stopped answering / answers again" into the persisted alert
// `secrets.keychain_unavailable` (critical), so the GUI, the tray and a notification say so once,
// and the first keychain call that works again resolves it. Writes only on a change of state.
import { say } from '../contract/said/index.js';
import { raiseAlert, resolveAlert } from '../store/alerts.js';
import type { Clock } from '../clock.js';
import type { Logger } from '../log/logger.js';
import type { KeychainUnavailableError } from '../secrets/errors.js';
import { KEYCHAIN_ALERT, type StoreWatch } from '../secrets/watched-store.js';
import type { Db } from '../store/open.js';

export class KeychainWatch implements StoreWatch {
  private target: { db: Db; clock: Clock; logger: Logger } | null = null;
  /** null until the first answer: then an alert left by an earlier run is cleared too. */
  private down: boolean | null = null;
  private listener: () => void = () => undefined;

  attach(db: Db, clock: Clock, logger: Logger): void {
    this.target = { db, clock, logger };
  }

  onChange(listener: () => void): void {
    this.listener = listener;
  }

  unavailable(err: KeychainUnavailableError): void {
    if (this.down === true || !this.target) return;
    this.down = true;
    const { db, clock, logger } = this.target;
    logger.warn('the keychain stopped answering: backups, rotation and new secrets wait for it', { error: err.message });
    this.write(() => raiseAlert(db, clock, KEYCHAIN_ALERT, 'critical', say('alert.keychain_down', { detail: err.detail })));
  }

  available(): void {
    if (this.down === false || !this.target) return;
    const wasDown = this.down === true;
    this.down = false;
    const { db, clock, logger } = this.target;
    if (wasDown) logger.info('the keychain answers again');
    this.write(() => resolveAlert(db, clock, KEYCHAIN_ALERT));
  }

  private write(change: () => boolean): void {
    try {
      if (change()) this.listener();
    } catch (err) {
      // The alert is a courtesy; a full disk must not turn a keychain error into another one.
      this.target?.logger.warn('the keychain alert could not be written', { error: err instanceof Error ? err.message : String(err) });
    }
  }
}
