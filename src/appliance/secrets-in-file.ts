// Secrets in a file instead of the OS keychain are allowed (headless servers, the quick start on a
// machine without a desktop session) but never silent: this sentence goes to the console at every
// start, /health/ready warns (`secrets`), and the GUI and the tray show the `secrets.in_file` alert.
import type { Alert } from '../backup/alerts.js';
import type { SecretStore } from '../secrets/secret-store.js';
import { SecretsFileStore } from '../secrets/secrets-file.js';

export const SECRETS_IN_FILE_ALERT = 'secrets.in_file';

export function secretsInFileSentence(path: string): string {
  return `Your keys are in a file (${path}), not in the OS keychain: anyone who can read that file as you can open your backups. ` +
    'When a keychain is available (a desktop session), move them there with `sanad secrets move-to-keychain`.';
}

/** The live alert while the secrets are in a file (not stored: it is a fact of this start, which
 *  is its `first_seen`, so a notifier sees one occurrence, not one per look). */
export function secretsFileAlerts(store: SecretStore, sinceS: number): Alert[] {
  if (!(store instanceof SecretsFileStore)) return [];
  return [{ key: SECRETS_IN_FILE_ALERT, severity: 'warning', message: secretsInFileSentence(store.path), first_seen: sinceS, last_seen: sinceS, count: 1, resolved_at: null }];
}
