// At start-up, before any job runs: every run of any kind that a crash (a kill, a power cut) left
// open is settled here, with a reason, by the one settle of runs.ts (as tasks/recovery.ts does for
// tasks). A run is settled only when its lock shows that no other process (a `sanad backup now`, a
// CLI drill) is still doing it. Each kind may add its own undo: a drill's checklist says the process
// ended; a restore cut short has its target put back as it was, and the keychain entries it may have
// written for that target removed, so the next attempt starts clean. At a service's start, a CLI
// command's temporary admin client left by a command that died is revoked too.
import type { Clock } from '../clock.js';
import type { Logger } from '../log/logger.js';
import { settleDrillDetails } from '../drill/drill-runs.js';
import { getRestoreRun } from '../restore/restore-runs.js';
import { rollbackLeftoverTarget } from '../restore/target-dir.js';
import { RESTIC_PASSPHRASE, VAULT_KEY, VAULT_KEY_NEXT, type SecretStore } from '../secrets/secret-store.js';
import { revokeStaleTemporaryClients } from '../store/clients.js';
import type { Db } from '../store/open.js';
import { unixSeconds } from '../clock.js';
import { settleRuns, type RunRow, type Settled } from './runs.js';

export const BACKUP_INTERRUPTED =
  'Sanad stopped while this backup ran (it was closed, killed, or the power went); the generations before it are untouched and the next backup runs as usual.';
export const DRILL_INTERRUPTED = 'Sanad stopped while this drill ran; it says nothing about the backups. The next drill runs as usual.';

export interface LeftoverInput {
  db: Db;
  dataDir: string;
  clock: Clock;
  logger: Logger;
  /** The secret store scoped to another data dir (a restore's target), when the store can be. */
  secretsFor?: (dataDir: string) => SecretStore | null;
}

export interface LeftoverReport {
  runs: Settled[];
  restores: Array<{ id: number; target: string; putBack: boolean }>;
}

/** The one settle of runs left open, with each kind's undo; any process that runs jobs calls it first. */
export async function settleRunsHere(input: LeftoverInput): Promise<LeftoverReport> {
  const { db, dataDir, clock, logger } = input;
  const restores: LeftoverReport['restores'] = [];
  const runs = await settleRuns(db, dataDir, clock.now(), {
    backup: () => BACKUP_INTERRUPTED,
    drill: (run) => {
      settleDrillDetails(db, run.id);
      return DRILL_INTERRUPTED;
    },
    restore: (run) => putBackRestore(input, run, restores),
  });
  if (runs.length > 0) logger.info('interrupted runs settled', { runs: runs.map((r) => `${r.kind}:${r.id}:${r.status}`) });
  return { runs, restores };
}

/** At a service's start: the runs, and the temporary admin clients of CLI commands that died. */
export async function settleLeftovers(input: LeftoverInput): Promise<LeftoverReport> {
  const report = await settleRunsHere(input);
  // A CLI command that died while asking the service left its temporary admin client: no command
  // can be asking a service that is only starting, so every one left is stale.
  const clients = revokeStaleTemporaryClients(input.db, unixSeconds(input.clock));
  if (clients > 0) input.logger.info('temporary admin clients of dead commands revoked', { temporary_clients: clients });
  return report;
}

async function putBackRestore(input: LeftoverInput, run: RunRow, restores: LeftoverReport['restores']): Promise<string> {
  const { db, logger } = input;
  const details = getRestoreRun(db, run.id);
  if (!details) return 'Sanad stopped while this restore ran; run the restore again.';
  const putBack = await rollbackLeftoverTarget(details.target, details.created_top).catch((err: unknown) => {
    logger.warn('could not put back the target of an interrupted restore', { target: details.target, error: err instanceof Error ? err.message : String(err) });
    return false;
  });
  if (putBack) await forgetSecrets(input.secretsFor?.(details.target) ?? null, logger);
  restores.push({ id: run.id, target: details.target, putBack });
  return putBack
    ? `Sanad stopped while this restore ran; ${details.target} was put back as it was before, so run the restore again.`
    : `Sanad stopped while this restore ran; ${details.target} may hold part of it: delete that folder and run the restore again.`;
}

async function forgetSecrets(store: SecretStore | null, logger: Logger): Promise<void> {
  if (store === null) return;
  for (const name of [VAULT_KEY, RESTIC_PASSPHRASE, VAULT_KEY_NEXT]) {
    await store
      .delete(name)
      .catch((err: unknown) =>
        logger.warn('could not remove a keychain entry of an interrupted restore', { name, error: err instanceof Error ? err.message : String(err) }),
      );
  }
}
