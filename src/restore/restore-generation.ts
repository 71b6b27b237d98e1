// `sanad restore --target DIR` and the GUI's restore: one generation from a repository into an
// empty or absent folder, verified piece by piece (see restore-steps.ts), then the restored
// dir's secrets into the keychain, last. Any failure puts DIR back as it was (absent or empty)
// and leaves no keychain entry for it; the live data dir is only ever read.
import { rm } from 'node:fs/promises';
import { silentLogger } from '../log/logger.js';
import { isNearlyFull, isOutOfSpace, outOfSpaceSentence } from '../store/disk.js';
import { RESTIC_PASSPHRASE, VAULT_KEY, VAULT_KEY_NEXT, type SecretStore } from '../secrets/secret-store.js';
import { CheckList, errorSaid, restoreCheck, RestoreStopped } from './checks.js';
import type { RestoreProgress } from './restore-progress.js';
import type { RestoreRequest, RestoreResult } from './restore-request.js';
import { restoreSteps, type StepState } from './restore-steps.js';
import { inspectTarget, prepareTarget, proveTarget, rollbackTarget } from './target-dir.js';

export type { RestoreRequest, RestoreResult } from './restore-request.js';

export function shellQuote(s: string): string {
  return /^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

export async function restoreGeneration(req: RestoreRequest): Promise<RestoreResult> {
  const logger = req.logger ?? silentLogger;
  const progress = (p: RestoreProgress): void => {
    try {
      req.onProgress?.(p);
    } catch {
      // A broken progress listener must not break the restore.
    }
  };
  const checks = new CheckList();
  const inspection = await proveTarget(await inspectTarget(req.target, req.liveDataDir));
  checks.all.push(...inspection.checks);
  const base = { repo: req.source.repoName, target: inspection.path };
  if (inspection.state === null) {
    const why = checks.firstFailure()?.detail ?? 'the target was refused.';
    return {
      ...base,
      ok: false,
      generation: req.generation ?? null,
      snapshot_id: null,
      snapshot_time: null,
      checks: checks.all,
      next_step: null,
      error: `Refused: ${why}`,
    };
  }

  const target = await prepareTarget(inspection.path, inspection.state);
  req.onTargetPrepared?.(target.state === 'absent' ? (target.createdTop ?? target.path) : null);
  const state: StepState = { generation: null, snapshotId: null, snapshotTime: null, secrets: null, secretsWritten: false };
  try {
    await restoreSteps(req, target, checks, state, progress);
  } catch (err) {
    if (!(err instanceof RestoreStopped)) {
      logger.error('restore failed unexpectedly', { error: err instanceof Error ? err.stack : String(err) });
      checks.all.push(restoreCheck('restore:completed', false, errorSaid(err)));
    }
  }
  // Looked at before the cleanup frees the space again: was it the target's disk that filled?
  const diskFull = isNearlyFull(target.path) ? outOfSpaceSentence(target.path, 'the restore target') : null;
  progress({ phase: 'cleaning_up' });
  await rm(target.work, { recursive: true, force: true }).catch(() => undefined);
  const failed = checks.firstFailure();
  let error: string | null = null;
  if (failed) {
    const full = diskFull ?? (isOutOfSpace(failed.detail) ? outOfSpaceSentence(target.path, 'the restore target') : null);
    const space = full ? `${full} ` : '';
    const secrets = state.secretsWritten && state.secrets ? await forget(state.secrets) : 'nothing was stored in the keychain';
    await rollbackTarget(target);
    error = `${space}${failed.name} failed: ${failed.detail} ${target.path} was ${target.state === 'absent' ? 'removed' : 'emptied again'}; ${secrets}.${full ? ' Choose a folder on a disk with more room.' : ''}`;
  }
  progress({ phase: 'done' });
  logger.info('restore finished', { target: target.path, repo: base.repo, generation: state.generation, ok: !failed, failed: failed?.name });
  return {
    ...base,
    ok: !failed,
    generation: state.generation,
    snapshot_id: state.snapshotId,
    snapshot_time: state.snapshotTime,
    checks: checks.all,
    next_step: failed ? null : `sanad serve --data-dir ${shellQuote(target.path)}`,
    error,
  };
}

/** Removes the restored dir's secrets after a failure; says what was done. */
async function forget(store: SecretStore): Promise<string> {
  try {
    for (const name of [VAULT_KEY, RESTIC_PASSPHRASE, VAULT_KEY_NEXT]) await store.delete(name);
    return `its entries in ${store.description} were removed`;
  } catch (err) {
    return `its entries in ${store.description} could not be removed (${err instanceof Error ? err.message : String(err)}); delete them by hand`;
  }
}
