// `sanad doctor` and the GUI's Settings → Diagnostics: every check, in order, from the same code.
// Every check only reads: the store is opened read-only, repositories get `restic cat config`
// without a lock, and nothing is written anywhere.
import { existsSync } from 'node:fs';
import { systemClock, unixSeconds, type Clock } from '../clock.js';
import { listRepositories } from '../repository/repositories.js';
import { openStore } from '../store/open.js';
import { readSettings } from '../store/settings.js';
import { type DoctorCheck } from './check.js';
import { dataDirCheck, diskCheck, portCheck, storeCheck } from './checks/data-dir.js';
import { ageCheck, nodeCheck, rcloneCheck, resticCheck } from './checks/programs.js';
import { backupAgeCheck, drillCheck, keychainCheck, recoveryKitCheck, repositoryChecks } from './checks/protection.js';
import { storePath } from '../files/data-dir-layout.js';

export type { DoctorCheck, DoctorStatus } from './check.js';

export interface DoctorInput {
  dataDir: string;
  secretsFile?: string | undefined;
  /** The port a serve would take (default 7437). */
  port?: number;
  /** Set when a running Sanad asks about itself: its own port is its own. */
  servingPort?: number;
  clock?: Clock;
}

export async function runDiagnostics(input: DoctorInput): Promise<DoctorCheck[]> {
  const { dataDir } = input;
  const nowS = unixSeconds(input.clock ?? systemClock);
  const store = storeCheck(dataDir);
  const keychain = await keychainCheck(dataDir, input.secretsFile);
  const readable = store.status === 'ok' && existsSync(storePath(dataDir));
  const db = readable ? openStore(storePath(dataDir), { readonly: true }) : null;
  try {
    const needsRclone =
      db !== null && (listRepositories(db).some((r) => r.enabled && r.type === 'rclone') || readSettings(db).offsite_copy_destination !== null);
    const checks: DoctorCheck[] = [
      nodeCheck(),
      await resticCheck(),
      await rcloneCheck(needsRclone),
      await ageCheck(),
      keychain.check,
      dataDirCheck(dataDir),
      store,
      diskCheck(dataDir),
      await portCheck(dataDir, input.port ?? 7437, input.servingPort ?? null),
    ];
    if (db !== null) {
      checks.push(...(await repositoryChecks(db, dataDir, keychain.store)), backupAgeCheck(db, nowS), drillCheck(db, nowS), recoveryKitCheck(db));
    }
    return checks;
  } finally {
    db?.close();
  }
}
