// Secrets in a file instead of the OS keychain are allowed (headless servers, the quick start on a
// machine without a desktop session) but never silent: this sentence goes to the console at every
// start, /health/ready warns (`secrets`), and the GUI and the tray show the `secrets.in_file` alert.
import { liveAlert, type Alert } from '../store/alerts.js';
import { say } from '../contract/said/index.js';
import type { SecretStore } from '../secrets/secret-store.js';
import { SecretsFileStore } from '../secrets/secrets-file.js';

export const SECRETS_IN_FILE_ALERT = 'secrets.in_file';

export function secretsInFileSentence(path: string): string {
  return say('alert.secrets_in_file', { path }).detail;
}

/** The live alert while the secrets are in a file (not stored: it is a fact of this start, which
 *  is its `first_seen`, so a notifier sees one occurrence, not one per look). */
export function secretsFileAlerts(store: SecretStore, sinceS: number): Alert[] {
  if (!(store instanceof SecretsFileStore)) return [];
  return [liveAlert(SECRETS_IN_FILE_ALERT, 'warning', say('alert.secrets_in_file', { path: store.path }), { first_seen: sinceS, last_seen: sinceS })];
}
