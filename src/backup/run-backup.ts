// One backup run: make a generation, send it to every enabled repository (local first), record
// the outcome, raise or resolve alerts. An offsite failure never fails the local backup and is
// never silent. Never two runs at once on a data dir, across processes (a file lock).
import { errorParam } from '../contract/said.js';
import { say } from '../contract/said/index.js';
import { lastSnapshotId, recordCopy, setOffsiteCopyOutcome, setRunManifest, type BackupRunHandle, type SentSnapshot } from '../repository/backup-runs.js';
import { existsSync, mkdirSync } from 'node:fs';
import { hostname } from 'node:os';
import { join, resolve } from 'node:path';
import type { Clock } from '../clock.js';
import { unixSeconds } from '../clock.js';
import type { Logger } from '../log/logger.js';
import type { Vault } from '../secrets/vault.js';
import type { Db } from '../store/open.js';
import { raiseAlert, resolveAlert } from '../store/alerts.js';
import { listModels } from '../store/models.js';
import { isNearlyFull, isOutOfSpace, outOfSpaceSentence } from '../store/disk.js';
import { backupTargets, listGenerations, makeGeneration, pruneStaging } from './generation/index.js';
import { manifestText } from '../repository/generation/manifest.js';
import { assertFolderPresent, FolderMissingError, isOnDisk } from '../repository/folder-target.js';
import { sendOffsiteCopy } from './offsite-copy/index.js';
import { writeLastGood } from '../repository/last-good.js';
import { pendingOldKeys, removeOldKeys } from './old-keys.js';
import { ensureLocalRepository, listRepositories, recordRepositoryResult, LOCAL, type Repository } from '../repository/repositories.js';
import { ResticError, type BackupProgress, type BackupResult, type BackupSummary, type Restic } from '../repository/restic/index.js';
import { DEFAULT_OFFSITE_RETRY, withOffsiteRetries, type Attempt, type OffsiteRetry } from './offsite-attempts.js';
import { toResticRepo } from '../repository/restic-target.js';
import { backupsDir, stagingDir } from '../files/data-dir-layout.js';
import { tryBackupLock } from '../repository/backup-lock.js';
import { SNAPSHOT_TAGS } from '../repository/generation/manifest.js';
import { removeVaultKey } from '../repository/generation/vault-key-file.js';
import { cancelledByPerson } from '../process/cancel.js';
import { makeDirsSync } from '../files/make-dirs.js';

export interface BackupDeps {
  db: Db;
  dataDir: string;
  clock: Clock;
  logger: Logger;
  vault: Vault;
  vaultKey: Buffer;
  passphrase: string;
  restic: Restic;
  appVersion: string;
  /** The optional compressed, age-encrypted copy of each generation to an rclone folder. */
  offsiteCopy?: { destination: string; keep: number; rcloneConfig?: string };
  /** How an offsite repository that stops answering is given up on (offsite-attempts.ts). */
  offsiteRetry?: OffsiteRetry;
}

export interface OffsiteCopyOutcome {
  destination: string;
  ok: boolean;
  name: string | null;
  deleted: string[];
  error: string | null;
}

export interface RepositoryOutcome {
  name: string;
  ok: boolean;
  snapshot_id: string | null;
  error: string | null;
  /** restic's summary: what this run read and added (an unchanged model adds nothing). */
  summary?: BackupSummary;
  /** What was sent (paths, host, time): the record a restore on this machine reads. */
  sent?: SentSnapshot;
}

export const modelChangedKey = (id: string): string => `model.changed:${id}`;

/** An alert per model left out because its file changed; resolved once the file matches again. */
function noteChangedModels(deps: BackupDeps, changed: readonly string[]): void {
  const { db, clock, logger } = deps;
  for (const model of listModels(db)) {
    const key = modelChangedKey(model.id);
    if (!changed.includes(model.id)) {
      resolveAlert(db, clock, key);
      continue;
    }
    if (raiseAlert(db, clock, key, 'warning', say('alert.model_changed', { model: model.id, path: model.path })))
      logger.warn('a model file changed since it was registered: left out of the backup', { model: model.id });
  }
}

export interface BackupOutcome {
  run_id: number;
  generation: number | null;
  status: 'ok' | 'partial' | 'failed';
  repositories: RepositoryOutcome[];
  offsite_copy: OffsiteCopyOutcome | null;
  error: string | null;
}

export type BackupPhase =
  { phase: 'generation'; step: string } | { phase: 'copy'; repository: string } | ({ phase: 'upload'; repository: string } & BackupProgress);

export class BackupBusyError extends Error {
  constructor() {
    super('A backup is already running on this data dir; wait for it to finish.');
    this.name = 'BackupBusyError';
  }
}

function message(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

export interface RunBackupOptions {
  /** The run this backup is recorded under (its owner, jobs/, opened it and ends it with the outcome). */
  run: BackupRunHandle;
  onProgress?: (p: BackupPhase) => void;
  signal?: AbortSignal;
}

export async function runBackup(deps: BackupDeps, options: RunBackupOptions): Promise<BackupOutcome> {
  mkdirSync(backupsDir(deps.dataDir), { recursive: true, mode: 0o700 });
  const lock = tryBackupLock(deps.dataDir);
  if (!lock) throw new BackupBusyError();
  try {
    return await runLocked(deps, options);
  } finally {
    lock.release();
  }
}

async function runLocked(deps: BackupDeps, options: RunBackupOptions): Promise<BackupOutcome> {
  const { db, clock } = deps;
  const runId = options.run.id;
  const outcomes: RepositoryOutcome[] = [];
  let generation: number | null = null;
  let fatal: string | null = null;
  let dir: string | null = null;
  let copy: OffsiteCopyOutcome | null = null;
  try {
    ensureLocalRepository(db, deps.dataDir, clock);
    // A run killed after its snapshot but before cleanup left its vault key in staging: remove it.
    for (const old of await listGenerations(deps.dataDir)) await removeVaultKey(old.dir);
    const gen = await makeGeneration({
      dataDir: deps.dataDir,
      db,
      vaultKey: deps.vaultKey,
      clock,
      appVersion: deps.appVersion,
      onProgress: (p) => options.onProgress?.({ phase: 'generation', step: p.step }),
    });
    generation = gen.epoch;
    dir = gen.dir;
    noteChangedModels(deps, gen.changedModels);
    options.run.generation(gen.epoch);
    setRunManifest(db, runId, manifestText(gen.manifest));
    for (const repo of listRepositories(db).filter((r) => r.enabled)) {
      // Cancelled or stopping: no repository more is started (restic got SIGINT in the one that ran).
      if (options.signal?.aborted === true) break;
      const outcome = await sendTo(deps, repo, backupTargets(gen), options);
      outcomes.push(outcome);
      recordCopy(
        db,
        {
          run_id: runId,
          repository: repo.name,
          ok: outcome.ok ? 1 : 0,
          snapshot_id: outcome.snapshot_id,
          error: outcome.error,
          finished_at: unixSeconds(clock),
          summary: outcome.summary ? JSON.stringify(outcome.summary) : null,
        },
        outcome.sent ?? null,
      );
    }
    // Old keys a passphrase rotation could not remove (old-keys.ts): retried under this lock.
    if (pendingOldKeys(db).length > 0) {
      await removeOldKeys(deps, deps.passphrase, options.signal ? { signal: options.signal } : {}).catch((err: unknown) =>
        deps.logger.warn('old restic keys were not removed', { error: message(err) }),
      );
    }
    if (deps.offsiteCopy && options.signal?.aborted !== true) copy = await sendCopy(deps, deps.offsiteCopy, gen.dir, gen.epoch, options.signal);
  } catch (err) {
    fatal =
      isOutOfSpace(err) || isNearlyFull(stagingDir(deps.dataDir))
        ? `${outOfSpaceSentence(stagingDir(deps.dataDir), 'the backup staging folder')} Nothing of this generation was kept; free some space and the next backup runs as usual.`
        : message(err);
  } finally {
    if (dir) await removeVaultKey(dir).catch((err: unknown) => deps.logger.error('could not remove the vault key from staging', { error: message(err) }));
    await pruneStaging(deps.dataDir, 2).catch((err: unknown) => deps.logger.warn('staging prune failed', { error: message(err) }));
  }
  const localOk = outcomes.some((o) => o.name === LOCAL && o.ok);
  const status: BackupOutcome['status'] = fatal !== null || !localOk ? 'failed' : outcomes.every((o) => o.ok) && (copy === null || copy.ok) ? 'ok' : 'partial';
  const error = fatal ?? outcomes.find((o) => o.name === LOCAL && !o.ok)?.error ?? null;
  setOffsiteCopyOutcome(db, runId, copy);
  // A person's cancel is no failure and no success: the alerts stay as they were.
  if (cancelledByPerson(options.signal)) {
    deps.logger.info('backup cancelled', { run_id: runId, generation });
    return { run_id: runId, generation, status, repositories: outcomes, offsite_copy: copy, error: error ?? 'Cancelled by you.' };
  }
  if (status === 'failed') raiseAlert(db, clock, 'backup.failed', 'critical', say('alert.backup_failed', { error: error ?? 'unknown error' }));
  else resolveAlert(db, clock, 'backup.failed');
  if (status !== 'failed' && generation !== null) {
    try {
      const repos = listRepositories(db);
      writeLastGood(deps.dataDir, {
        generation,
        finished_at: unixSeconds(clock),
        repositories: outcomes.filter((o) => o.ok).map((o) => ({ name: o.name, type: repos.find((r) => r.name === o.name)?.type ?? 'unknown' })),
        local_location: repos.find((r) => r.name === LOCAL)?.location ?? null,
      });
    } catch (err) {
      deps.logger.warn('the last-good-backup record could not be written', { error: message(err) });
    }
  }
  deps.logger.info('backup finished', { run_id: runId, generation, status, repositories: outcomes.map((o) => `${o.name}:${o.ok ? 'ok' : 'failed'}`) });
  return { run_id: runId, generation, status, repositories: outcomes, offsite_copy: copy, error };
}

async function sendTo(
  deps: BackupDeps,
  repo: Repository,
  targets: string[],
  options: { onProgress?: (p: BackupPhase) => void; signal?: AbortSignal },
): Promise<RepositoryOutcome> {
  const { db, clock, restic } = deps;
  const alertKey = `backup.offsite_failed:${repo.name}`;
  try {
    assertFolderPresent(repo);
    const target = toResticRepo(repo, deps.vault, deps.passphrase);
    if (repo.type === 'local') makeDirsSync(repo.location);
    const signal = options.signal ? { signal: options.signal } : {};
    const report = (p: BackupProgress): void => options.onProgress?.({ phase: 'upload', repository: repo.name, ...p });
    // Said before restic's first line: the run is at this repository now (and its watchdog says so
    // if restic never answers).
    report({ percent: 0, files_done: 0, total_files: 0, bytes_done: 0, total_bytes: 0 });
    // One time and host for every attempt, as recorded: a retried upload is the same snapshot's.
    const sent: SentSnapshot = { paths: targets.map((t) => resolve(t)), host: hostname(), time: new Date(clock.now()).toISOString() };
    const attempt =
      (parent: string | null): Attempt<BackupResult> =>
      (attemptSignal, onProgress) =>
        restic.backup(target, targets, {
          tags: SNAPSHOT_TAGS,
          host: sent.host,
          time: new Date(sent.time),
          ...(parent ? { parent } : {}),
          signal: attemptSignal,
          // Four status lines a second: what the live progress events (jobs/backups.ts) pass on.
          progressPerSecond: 4,
          onProgress,
        });
    // A disk on this computer answers or not: retrying is for networks.
    const onDisk = isOnDisk(repo.type);
    const backup = (parent: string | null): Promise<BackupResult> =>
      onDisk
        ? attempt(parent)(options.signal ?? new AbortController().signal, report)
        : withOffsiteRetries(repo.name, deps.offsiteRetry ?? DEFAULT_OFFSITE_RETRY, options.signal, attempt(parent), report, (err, waitMs) =>
            deps.logger.warn('offsite backup attempt failed; trying again', { repository: repo.name, wait_ms: waitMs, error: message(err) }),
          );
    // The last attempt here failed (a server that died mid-upload, say): the restic it interrupted
    // could not remove its lock then. Clear stale locks (never a live one) now that it may answer.
    if (repo.type !== 'local' && repo.last_error_at !== null && (repo.last_ok_at === null || repo.last_error_at > repo.last_ok_at)) {
      await restic
        .unlock(target, signal)
        .catch((err: unknown) => deps.logger.debug('unlock before retrying an offsite failed', { repository: repo.name, error: message(err) }));
    }
    // Each restic start costs a key derivation (~0.7 s here), so the common case is one start: the
    // parent (which spares re-reading unchanged models) comes from Sanad's own record of the last
    // snapshot, and the repository is created only when restic says there is none. The slow path
    // (ask restic for its snapshots) runs only when the recorded parent is unknown to the repository.
    let result: BackupResult;
    const parent = lastSnapshotId(db, repo.name);
    try {
      // A local repository that Sanad never backed up to and that has no restic config yet is
      // created first: no restic start that can only fail.
      if (onDisk && parent === null && !existsSync(join(repo.location, 'config'))) {
        await restic.init(target, signal);
        result = await backup(null);
      } else {
        result = await backup(parent);
      }
    } catch (err) {
      if (err instanceof ResticError && err.kind === 'no_repo') {
        await restic.init(target, signal);
        result = await backup(null);
      } else if (err instanceof ResticError && err.kind === 'failed' && /parent|no matching ID/i.test(err.stderrTail.join('\n'))) {
        const previous = (await restic.snapshots(target, { tags: SNAPSHOT_TAGS, ...signal })).sort((a, b) => b.time.localeCompare(a.time))[0];
        result = await backup(previous?.id ?? null);
      } else {
        throw err;
      }
    }
    recordRepositoryResult(db, repo.name, unixSeconds(clock), null);
    if (repo.name !== LOCAL) resolveAlert(db, clock, alertKey);
    return { name: repo.name, ok: true, snapshot_id: result.snapshotId, error: null, summary: result.summary, sent };
  } catch (err) {
    // A local repository on a full disk: say which disk, not restic's "write …: no space left".
    const error =
      isOnDisk(repo.type) && (isOutOfSpace(err) || isNearlyFull(repo.location))
        ? `${outOfSpaceSentence(repo.location, `the repository "${repo.name}"`)} Free some space on it and back up again.`
        : message(err);
    recordRepositoryResult(db, repo.name, unixSeconds(clock), error);
    // The first failure alerts; repeats are counted on the same alert, not silent and not spammed.
    if (repo.name !== LOCAL)
      raiseAlert(
        db,
        clock,
        alertKey,
        'warning',
        say('alert.offsite_failed', { repo: repo.name, error: err instanceof ResticError || err instanceof FolderMissingError ? [err.said] : error }),
      );
    deps.logger.warn('backup to repository failed', { repository: repo.name, error });
    return { name: repo.name, ok: false, snapshot_id: null, error };
  }
}

async function sendCopy(
  deps: BackupDeps,
  target: NonNullable<BackupDeps['offsiteCopy']>,
  generationDir: string,
  epoch: number,
  signal: AbortSignal | undefined,
): Promise<OffsiteCopyOutcome> {
  const { db, clock } = deps;
  try {
    const sent = await sendOffsiteCopy({
      generationDir,
      epoch,
      destination: target.destination,
      passphrase: deps.passphrase,
      keep: target.keep,
      db,
      clock,
      logger: deps.logger,
      ...(target.rcloneConfig ? { rcloneConfig: target.rcloneConfig } : {}),
      ...(signal ? { signal } : {}),
    });
    resolveAlert(db, clock, 'backup.offsite_copy_failed');
    return { destination: target.destination, ok: true, name: sent.uploaded.name, deleted: sent.deleted, error: null };
  } catch (err) {
    const error = message(err);
    raiseAlert(db, clock, 'backup.offsite_copy_failed', 'warning', say('alert.copy_failed', { destination: target.destination, error: errorParam(err) }));
    return { destination: target.destination, ok: false, name: null, deleted: [], error };
  }
}
