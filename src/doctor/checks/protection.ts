// Is the data protected? Where the secrets are, each enabled repository answering (a read-only
// `restic cat config`, never a write or a lock), the last good backup and the last drill against
// their targets, and the recovery kit confirmed.
import { backupTargetHours } from '../../contract/backups.js';
import { lastGoodBackupAt } from '../../backup/backup-runs.js';
import { createRestic, findRestic } from '../../backup/restic/index.js';
import { listRepositories } from '../../backup/repositories.js';
import { toResticRepo } from '../../backup/restic-target.js';
import { lastFinishedRun } from '../../drill/drill-runs.js';
import { KeychainUnavailableError } from '../../secrets/errors.js';
import { openSecretStore } from '../../secrets/open-secret-store.js';
import { recoveryKitConfirmedAt } from '../../secrets/recovery-kit.js';
import { RESTIC_PASSPHRASE, VAULT_KEY, type SecretStore } from '../../secrets/secret-store.js';
import { Vault } from '../../secrets/vault.js';
import type { Db } from '../../store/open.js';
import { readSettings } from '../../store/settings.js';
import { fail, messageOf, ok, warn, type DoctorCheck } from '../check.js';

const DAY = 86_400;

export async function keychainCheck(dataDir: string, secretsFile: string | undefined): Promise<{ check: DoctorCheck; store: SecretStore | null }> {
  try {
    const store = await openSecretStore(dataDir, secretsFile);
    const check = store.path !== undefined
      ? warn('keychain', `the secrets are in a file (${store.path}), not in the OS keychain`, 'move them with `sanad secrets move-to-keychain` once a keychain is available')
      : ok('keychain', 'the OS keychain answers');
    return { check, store };
  } catch (err) {
    const fix = err instanceof KeychainUnavailableError
      ? 'run Sanad in a desktop session, or start it with `npm start` (which keeps the secrets in a file when there is no keychain)'
      : null;
    return { check: fail('keychain', messageOf(err), fix), store: null };
  }
}

export async function repositoryChecks(db: Db, dataDir: string, store: SecretStore | null): Promise<DoctorCheck[]> {
  const repos = listRepositories(db).filter((r) => r.enabled);
  if (repos.length === 0) return [];
  const [passphrase, key] = store ? await Promise.all([store.get(RESTIC_PASSPHRASE).catch(() => null), store.get(VAULT_KEY).catch(() => null)]) : [null, null];
  if (passphrase === null || key === null) {
    return repos.map((r) => warn(`repo:${r.name}`, `"${r.name}" was not checked: its passphrase could not be read`, 'fix the keychain line above first'));
  }
  let restic;
  try {
    const binary = await findRestic({ ...(process.env.SANAD_RESTIC ? { configuredPath: process.env.SANAD_RESTIC } : {}) });
    restic = createRestic({ binary, cacheDir: `${dataDir}/backups/cache`, noLock: true });
  } catch {
    return repos.map((r) => warn(`repo:${r.name}`, `"${r.name}" was not checked: restic is missing`, 'install restic first'));
  }
  const vault = new Vault(db, Buffer.from(key, 'base64'));
  const out: DoctorCheck[] = [];
  for (const repo of repos) {
    try {
      const exists = await restic.isInitialized(toResticRepo(repo, vault, passphrase));
      out.push(exists
        ? ok(`repo:${repo.name}`, `"${repo.name}" (${repo.type}) answers and opens with this data dir's passphrase`)
        : (repo.last_ok_at === null
          ? ok(`repo:${repo.name}`, `"${repo.name}" (${repo.type}) has no repository yet; the first backup makes it`)
          : fail(`repo:${repo.name}`, `"${repo.name}" (${repo.type}) has no repository, though backups were made to it`, 'check its location (`sanad repo list`); the backups there are gone or moved')));
    } catch (err) {
      out.push(fail(`repo:${repo.name}`, `"${repo.name}" (${repo.type}): ${messageOf(err)}`, `check the remote, then \`sanad repo test ${repo.name}\``));
    }
  }
  return out;
}

export function backupAgeCheck(db: Db, nowS: number): DoctorCheck {
  const settings = readSettings(db);
  const target = backupTargetHours(settings.backup_interval_hours) * 3600;
  const last = lastGoodBackupAt(db);
  if (last === null) return warn('backup', 'no backup has been made yet', '`sanad backup now` (a running Sanad makes one on its schedule)');
  const age = nowS - last;
  const hours = (s: number): string => (s < 3600 ? `${Math.max(1, Math.round(s / 60))} min` : `${Math.round(s / 360) / 10} h`);
  return age > target
    ? fail('backup', `the last good backup is ${hours(age)} old (target ${hours(target)})`, '`sanad backup now`, and see why the schedule did not run (the last run\'s error is in the GUI)')
    : ok('backup', `the last good backup is ${hours(age)} old (target ${hours(target)})`);
}

export function drillCheck(db: Db, nowS: number): DoctorCheck {
  const last = lastFinishedRun(db);
  if (!last || last.finished_at === null) return warn('drill', 'no restore drill has run yet, so no backup is proven', '`sanad drill`');
  const age = Math.floor((nowS - last.finished_at) / DAY);
  if (last.verdict === 'FAIL') return fail('drill', `the last drill (${last.kind}, ${age} day(s) ago) found damage: FAIL`, 'see the failing check in the GUI (Drills) or `sanad drill --json`, then back up again');
  if (last.verdict === 'UNVERIFIED') return warn('drill', `the last drill (${last.kind}, ${age} day(s) ago) could not verify the backups`, '`sanad drill` once the cause it names is fixed');
  return nowS - last.finished_at > 2 * DAY
    ? warn('drill', `the last drill passed ${age} days ago (target: daily)`, '`sanad drill`')
    : ok('drill', `the last drill (${last.kind}) passed ${age === 0 ? 'today' : `${age} day(s) ago`}`);
}

export function recoveryKitCheck(db: Db): DoctorCheck {
  return recoveryKitConfirmedAt(db) === null
    ? warn('recovery_kit', 'the recovery kit has not been confirmed as stored off this machine', '`sanad recovery-kit --out FILE`, store it off this machine, then `sanad recovery-kit --confirm`')
    : ok('recovery_kit', 'the recovery kit is confirmed stored off this machine');
}
