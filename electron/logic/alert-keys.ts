// The alert keys the desktop shell reacts to, in one place. The core raises them (run-backup.ts,
// drill-alerts.ts); the tray turns them into a state and the notifier into native notifications.
// A key the shell does not know still counts in the tray by its severity.
import { DRILL_FAILED, DRILL_UNVERIFIED } from '../../src/drill/drill-alerts.js';
import { DISK_FULL_ALERT, DISK_LOW_ALERT } from '../../src/store/disk-state.js';
import { KEYCHAIN_ALERT } from '../../src/secrets/watched-store.js';
import { SECRETS_IN_FILE_ALERT } from '../../src/appliance/secrets-in-file.js';

export const BACKUP_FAILED = 'backup.failed';
/** `backup.offsite_failed:<repository name>` (run-backup.ts sendTo). */
export const OFFSITE_FAILED_PREFIX = 'backup.offsite_failed:';
/** The compressed, age-encrypted offsite copy (run-backup.ts sendCopy). */
export const OFFSITE_COPY_FAILED = 'backup.offsite_copy_failed';
export { DRILL_FAILED, DRILL_UNVERIFIED, DISK_FULL_ALERT, DISK_LOW_ALERT, KEYCHAIN_ALERT, SECRETS_IN_FILE_ALERT };

/** The name of the failing offsite target an alert stands for, or null for another alert. */
export function offsiteTargetOf(key: string): string | null {
  if (key.startsWith(OFFSITE_FAILED_PREFIX)) return key.slice(OFFSITE_FAILED_PREFIX.length);
  if (key === OFFSITE_COPY_FAILED) return 'offsite copy';
  return null;
}

/** Keys the tray explains with a line of its own; the others count by severity. */
export function isKnownAlert(key: string): boolean {
  return (
    key === BACKUP_FAILED ||
    key === DRILL_FAILED ||
    key === DRILL_UNVERIFIED ||
    key === DISK_FULL_ALERT ||
    key === DISK_LOW_ALERT ||
    key === KEYCHAIN_ALERT ||
    key === SECRETS_IN_FILE_ALERT ||
    offsiteTargetOf(key) !== null
  );
}
