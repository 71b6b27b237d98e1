// One offsite copy: encrypt a generation (without the vault key), upload it through rclone, record
// it, then keep the newest `keep` copies in the folder. Pruning happens only after a successful
// upload, from a listing that succeeded, is complete and shows the new copy with its size; deletes
// go oldest first and stop at the first failure, which raises `backup.offsite_prune_failed`. The
// doomed object is still there, so the next run's listing finds it and retries on its own.
import { errorParam } from '../../contract/said.js';
import { say } from '../../contract/said/index.js';
import type { Clock } from '../../clock.js';
import { unixSeconds } from '../../clock.js';
import { silentLogger, type Logger } from '../../log/logger.js';
import type { Db } from '../../store/open.js';
import { raiseAlert, resolveAlert } from '../../store/alerts.js';
import { readManifest } from '../generation/staging.js';
import { parseRcloneDestination } from '../../repository/rclone-destination.js';
import { createArchive, removeArchive } from './archive.js';
import { forgetOffsiteCopy, normalizeCopyDestination, recordOffsiteCopy } from '../../repository/offsite-copies.js';
import { planPrune, type PrunePlan } from './prune-plan.js';
import { assertRemoteConfigured, joinRemote, rcloneCopyTo, rcloneDeleteFile, rcloneLsJson, type RcloneOptions } from '../../repository/rclone.js';

// One key, not one per destination: Sanad sends offsite copies to a single folder.
export const PRUNE_FAILED_ALERT = 'backup.offsite_prune_failed';
export const DEFAULT_KEEP = 7;

export interface SendOffsiteCopyOptions {
  generationDir: string;
  epoch: number;
  /** `remote:folder` of a configured rclone remote. */
  destination: string;
  passphrase: string;
  /** Newest copies to keep; 0 keeps all. Default 7. */
  keep?: number;
  rcloneConfig?: string;
  db: Db;
  clock: Clock;
  signal?: AbortSignal;
  logger?: Logger;
  /** Parent of the private temp dir the archive is written to. Default: the OS temp dir. */
  tempParent?: string;
  /** scrypt work factor (log2); age's default 18 unless a test needs speed. */
  scryptWorkFactor?: number;
  rcloneBinary?: string;
}

export interface SendOffsiteCopyResult {
  uploaded: { name: string; size: number };
  deleted: string[];
  /** Why pruning did not (fully) happen, or null. Only a failed delete raises the alert. */
  pruneError: string | null;
}

export class OffsiteCopyError extends Error {
  override readonly name = 'OffsiteCopyError';
}

export async function sendOffsiteCopy(options: SendOffsiteCopyOptions): Promise<SendOffsiteCopyResult> {
  const log = options.logger ?? silentLogger;
  // Refuse a bad destination or setting before anything is encrypted or any rclone runs.
  parseRcloneDestination(options.destination);
  const destination = normalizeCopyDestination(options.destination);
  const keep = options.keep ?? DEFAULT_KEEP;
  if (!Number.isInteger(keep) || keep < 0) throw new OffsiteCopyError(`Offsite copies must keep a whole number of copies, not ${keep}.`);
  if (options.passphrase.length === 0) throw new OffsiteCopyError('The offsite copy passphrase is empty.');
  log.addSecret(options.passphrase);
  const manifest = await readManifest(options.generationDir);
  if (manifest.generation !== options.epoch) {
    throw new OffsiteCopyError(`The generation in ${options.generationDir} is ${manifest.generation}, not ${options.epoch}.`);
  }
  const rclone: RcloneOptions = {
    ...(options.rcloneConfig !== undefined ? { config: options.rcloneConfig } : {}),
    ...(options.rcloneBinary !== undefined ? { binary: options.rcloneBinary } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
    logger: log,
  };
  // The remote must be one rclone has configured (an inline backend or a typo is refused here,
  // before anything is encrypted or sent).
  await assertRemoteConfigured(options.destination, rclone).catch((err: unknown) => {
    throw new OffsiteCopyError(err instanceof Error ? err.message : String(err));
  });

  const archive = await createArchive({
    generationDir: options.generationDir,
    epoch: options.epoch,
    passphrase: options.passphrase,
    ...(options.tempParent !== undefined ? { tempParent: options.tempParent } : {}),
    ...(options.scryptWorkFactor !== undefined ? { scryptWorkFactor: options.scryptWorkFactor } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
  });
  try {
    await rcloneCopyTo(archive.path, joinRemote(destination, archive.name), rclone);
  } finally {
    await removeArchive(archive);
  }
  recordOffsiteCopy(options.db, {
    destination,
    name: archive.name,
    epoch: options.epoch,
    size: archive.size,
    sha256: archive.sha256,
    uploaded_at: unixSeconds(options.clock),
  });
  log.info('offsite copy uploaded', { destination, name: archive.name, size: archive.size });
  const uploaded = { name: archive.name, size: archive.size };

  if (keep === 0) {
    // Nothing is ever pruned, so an alert left from an earlier setting no longer applies.
    resolveAlert(options.db, options.clock, PRUNE_FAILED_ALERT);
    return { uploaded, deleted: [], pruneError: null };
  }
  let plan: PrunePlan;
  try {
    plan = planPrune(await rcloneLsJson(destination, rclone), uploaded, keep);
  } catch (err) {
    if (options.signal?.aborted) throw err;
    return skipped(log, destination, uploaded, `the listing failed (${message(err)})`);
  }
  if (plan.refused !== null) return skipped(log, destination, uploaded, plan.refused);

  const deleted: string[] = [];
  for (const name of plan.doomed) {
    try {
      await rcloneDeleteFile(joinRemote(destination, name), rclone);
    } catch (err) {
      if (options.signal?.aborted) throw err;
      // Stop here: deleting a newer copy while an older one stays would break "oldest first".
      const said = say('alert.copy_prune_failed', { name, destination, error: errorParam(err) });
      const pruneError = said.detail;
      raiseAlert(options.db, options.clock, PRUNE_FAILED_ALERT, 'warning', said);
      log.warn('offsite copy prune failed', { destination, name, error: message(err) });
      return { uploaded, deleted, pruneError };
    }
    forgetOffsiteCopy(options.db, destination, name);
    deleted.push(name);
  }
  resolveAlert(options.db, options.clock, PRUNE_FAILED_ALERT);
  if (deleted.length > 0) log.info('offsite copies pruned', { destination, deleted });
  return { uploaded, deleted, pruneError: null };
}

function skipped(log: Logger, destination: string, uploaded: SendOffsiteCopyResult['uploaded'], why: string): SendOffsiteCopyResult {
  const pruneError = `Old offsite copies in ${destination} were not pruned because ${why}.`;
  log.warn('offsite copy prune skipped', { destination, why });
  return { uploaded, deleted: [], pruneError };
}

function message(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
