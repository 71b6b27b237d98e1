// The recovery kit: what a new machine needs to read this data dir's backups (the repository
// locations and the restic passphrase). Sanad records when the user confirms it is stored off this
// machine; until then health and status warn, because without the passphrase every backup is lost.
import { hostname } from 'node:os';
import type { Clock } from '../clock.js';
import { unixSeconds } from '../clock.js';
import type { Db, ReadableDB } from '../store/open.js';
import { readConfigValue, writeConfigValue } from '../store/settings.js';

const CONFIRMED = 'recovery_kit_confirmed_at';

export interface RepositoryLocation {
  name: string;
  location: string;
}

export interface RecoveryKit {
  created_at: number;
  host: string;
  data_dir: string;
  restic_passphrase: string;
  repositories: RepositoryLocation[];
  text: string;
}

export function buildRecoveryKit(input: { dataDir: string; passphrase: string; repositories: RepositoryLocation[]; clock: Clock }): RecoveryKit {
  const created_at = unixSeconds(input.clock);
  const host = hostname();
  const repos = input.repositories.length
    ? input.repositories.map((r) => `  - ${r.name}: ${r.location}`).join('\n')
    : '  (no backup repository is configured yet; make a new kit after adding one)';
  const text = [
    'SANAD RECOVERY KIT',
    `Made ${new Date(created_at * 1000).toISOString()} on ${host} for the data dir ${input.dataDir}`,
    '',
    `Backup (restic) passphrase: ${input.passphrase}`,
    '',
    'Backup repositories:',
    repos,
    '',
    'Without this passphrase every backup is permanently unreadable. Keep this kit OFF this machine',
    '(a password manager, or printed and locked away), then confirm it in Sanad',
    '(`sanad recovery-kit --confirm`, or Settings in the app). To restore on a new machine:',
    '`sanad restore --list` and `sanad restore --target DIR`, giving this passphrase when asked.',
    '',
  ].join('\n');
  return { created_at, host, data_dir: input.dataDir, restic_passphrase: input.passphrase, repositories: input.repositories, text };
}

export function confirmRecoveryKit(db: Db, clock: Clock): number {
  const now = unixSeconds(clock);
  writeConfigValue(db, CONFIRMED, String(now), now);
  return now;
}

/** A rotated passphrase makes every exported kit stale: health warns again until a new one is confirmed. */
export function clearRecoveryKitConfirmation(db: Db): void {
  db.prepare('DELETE FROM service_config WHERE key = ?').run(CONFIRMED);
}

/** When the user confirmed the kit is stored off this machine, or null. */
export function recoveryKitConfirmedAt(db: ReadableDB): number | null {
  const v = readConfigValue(db, CONFIRMED);
  return v === undefined ? null : Number(v);
}
