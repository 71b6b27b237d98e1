// Is the data protected? Where the secrets are, each enabled repository answering (a read-only
// `restic cat config`, never a write or a lock), the last good backup and the last drill against
// their targets, and the recovery kit confirmed.
import { backupTargetHours } from '../../contract/backups.js';
import { scheduledIntervalHours } from '../../contract/settings.js';
import { lastGoodBackupAt } from '../../repository/backup-runs.js';
import { createRestic, findRestic } from '../../repository/restic/index.js';
import { listRepositories } from '../../repository/repositories.js';
import { folderAbsence } from '../../repository/folder-target.js';
import { toResticRepo } from '../../repository/restic-target.js';
import { lastFinishedRun } from '../../drill/drill-runs.js';
import { KeychainUnavailableError } from '../../secrets/errors.js';
import { openSecretStore } from '../../secrets/open-secret-store.js';
import { recoveryKitConfirmedAt } from '../../secrets/recovery-kit.js';
import { RESTIC_PASSPHRASE, VAULT_KEY, type SecretStore } from '../../secrets/secret-store.js';
import { Vault } from '../../secrets/vault.js';
import type { Db } from '../../store/open.js';
import { readSettings } from '../../store/settings.js';
import { errorParam } from '../../contract/said.js';
import { say } from '../../contract/said/index.js';
import { fail, ok, warn, type DoctorCheck } from '../check.js';

const DAY = 86_400;

export async function keychainCheck(dataDir: string, secretsFile: string | undefined): Promise<{ check: DoctorCheck; store: SecretStore | null }> {
  try {
    const store = await openSecretStore(dataDir, secretsFile);
    const check =
      store.path !== undefined
        ? warn('keychain', say('doctor.secrets_in_file', { path: store.path }), say('doctor.fix.move_to_keychain'))
        : ok('keychain', say('doctor.keychain_ok'));
    return { check, store };
  } catch (err) {
    if (err instanceof KeychainUnavailableError) {
      return { check: fail('keychain', say('alert.keychain_down', { detail: err.detail }), say('doctor.fix.keychain_session')), store: null };
    }
    return { check: fail('keychain', say('doctor.error', { error: errorParam(err) }), null), store: null };
  }
}

export async function repositoryChecks(db: Db, dataDir: string, store: SecretStore | null): Promise<DoctorCheck[]> {
  const repos = listRepositories(db).filter((r) => r.enabled);
  if (repos.length === 0) return [];
  const [passphrase, key] = store ? await Promise.all([store.get(RESTIC_PASSPHRASE).catch(() => null), store.get(VAULT_KEY).catch(() => null)]) : [null, null];
  if (passphrase === null || key === null) {
    return repos.map((r) => warn(`repo:${r.name}`, say('doctor.repo_no_passphrase', { repo: r.name }), say('doctor.fix.keychain_first')));
  }
  let restic;
  try {
    const binary = await findRestic({ ...(process.env.SANAD_RESTIC ? { configuredPath: process.env.SANAD_RESTIC } : {}) });
    restic = createRestic({ binary, cacheDir: `${dataDir}/backups/cache`, noLock: true });
  } catch {
    return repos.map((r) => warn(`repo:${r.name}`, say('doctor.repo_no_restic', { repo: r.name }), say('doctor.fix.restic_first')));
  }
  const vault = new Vault(db, Buffer.from(key, 'base64'));
  const out: DoctorCheck[] = [];
  for (const repo of repos) {
    const params = { repo: repo.name, type: repo.type };
    const absent = folderAbsence(repo);
    if (absent) {
      out.push(warn(`repo:${repo.name}`, absent, say('doctor.fix.connect_disk', { repo: repo.name })));
      continue;
    }
    try {
      const exists = await restic.isInitialized(toResticRepo(repo, vault, passphrase));
      out.push(
        exists
          ? ok(`repo:${repo.name}`, say('doctor.repo_ok', params))
          : repo.last_ok_at === null
            ? ok(`repo:${repo.name}`, say('doctor.repo_new', params))
            : fail(`repo:${repo.name}`, say('doctor.repo_gone', params), say('doctor.fix.repo_location')),
      );
    } catch (err) {
      out.push(fail(`repo:${repo.name}`, say('doctor.repo_error', { ...params, error: errorParam(err) }), say('doctor.fix.repo_test', { repo: repo.name })));
    }
  }
  return out;
}

export function backupAgeCheck(db: Db, nowS: number): DoctorCheck {
  const settings = readSettings(db);
  const target = backupTargetHours(scheduledIntervalHours(settings)) * 3600;
  const last = lastGoodBackupAt(db);
  if (last === null) return warn('backup', say('doctor.backup_none'), say('doctor.fix.backup_now'));
  const age = nowS - last;
  const found = say('doctor.backup_age', { age_seconds: age, target_seconds: target });
  return age > target ? fail('backup', found, say('doctor.fix.backup_late')) : ok('backup', found);
}

export function drillCheck(db: Db, nowS: number): DoctorCheck {
  const last = lastFinishedRun(db);
  if (!last || last.finished_at === null) return warn('drill', say('doctor.drill_none'), say('doctor.fix.drill'));
  const when = { kind: [say(last.kind === 'deep' ? 'drill.kind_deep' : 'drill.kind_daily')], time: new Date(last.finished_at * 1000).toISOString() };
  if (last.verdict === 'FAIL') return fail('drill', say('doctor.drill_failed', when), say('doctor.fix.drill_failed'));
  if (last.verdict === 'UNVERIFIED') return warn('drill', say('doctor.drill_unverified', when), say('doctor.fix.drill_unverified'));
  return nowS - last.finished_at > 2 * DAY
    ? warn('drill', say('doctor.drill_stale', { count: Math.floor((nowS - last.finished_at) / DAY) }), say('doctor.fix.drill'))
    : ok('drill', say('doctor.drill_ok', when));
}

export function recoveryKitCheck(db: Db): DoctorCheck {
  return recoveryKitConfirmedAt(db) === null
    ? warn('recovery_kit', say('doctor.kit_unconfirmed'), say('doctor.fix.kit'))
    : ok('recovery_kit', say('doctor.kit_ok'));
}
