// Rotation of the restic passphrase (issue 5). The order is what keeps every backup readable:
//   (1) the new passphrase is saved as `restic-passphrase-next` before any repository knows it;
//   (2) the new key is added to every repository (the ids of the keys there now are remembered);
//   (3) every repository is opened with the new passphrase, which must be its `current` key;
//   (4) the new passphrase becomes `restic-passphrase`; the pending one is removed;
//   (5) only then are the old keys removed, opening each repository with the new passphrase.
// A failure in (1)–(4) removes the keys it added (with the old passphrase) and the pending secret:
// nothing is revoked and the old passphrase still opens everything. A failure in (5) leaves the
// rotation done and an old key recorded for later removal (old-keys.ts) behind an alert.
// The backup lock is held throughout, so no backup (here or in another process) runs meanwhile.
import { mkdirSync } from 'node:fs';

import type { Clock } from '../clock.js';
import type { Logger } from '../log/logger.js';
import { newPassphrase, readResticPassphrase } from '../secrets/master-secrets.js';
import { clearRecoveryKitConfirmation } from '../secrets/recovery-kit.js';
import { RESTIC_PASSPHRASE, RESTIC_PASSPHRASE_NEXT, type SecretStore } from '../secrets/secret-store.js';
import type { Vault } from '../secrets/vault.js';
import type { Db } from '../store/open.js';
import { forgetOldKeys, recordOldKeys, removeOldKeys, sameKey } from './old-keys.js';
import { reconcilePassphrase } from './passphrase-reconcile.js';
import { listRepositories, type Repository } from '../repository/repositories.js';
import type { Restic, ResticRepo } from '../repository/restic/index.js';
import { toResticRepo } from '../repository/restic-target.js';
import { backupsDir } from '../files/data-dir-layout.js';
import { tryBackupLock } from '../repository/backup-lock.js';

/** Per repository: adding-key, key-added; once: the others, in this order. */
export type RotationStep = 'pending-saved' | 'adding-key' | 'key-added' | 'keys-added' | 'verified' | 'passphrase-saved' | 'persisted' | 'old-keys-removed';

export interface RotationDeps {
  db: Db;
  dataDir: string;
  clock: Clock;
  logger: Logger;
  store: SecretStore;
  restic: Restic;
  vault: Vault;
}

export interface RotationOptions {
  /** Progress: called before each key add and after each durable step (also the crash tests' freeze points). */
  onStep?: (step: RotationStep, repository?: string) => Promise<void> | void;
}

export interface RepositoryRotation {
  name: string;
  ok: boolean;
  /** Why this repository was left alone (not created yet); null when it was rotated. */
  skipped: string | null;
  old_keys_removed: boolean;
}

export interface RotationReport {
  rotated: true;
  repositories: RepositoryRotation[];
  warnings: string[];
  /** What the user must do now (a new recovery kit; old encrypted copies need the old passphrase). */
  notes: string[];
}

export class RotationBusyError extends Error {
  constructor() {
    super('A backup or another passphrase rotation is running on this data dir; rotate the passphrase when it has finished.');
    this.name = 'RotationBusyError';
  }
}

/** A failure before the persist: nothing was revoked. */
export class PassphraseRotationError extends Error {
  constructor(
    readonly step: string,
    readonly repository: string | null,
    cause: string,
    undone: string,
  ) {
    super(`The passphrase was not rotated: ${step}${repository ? ` on "${repository}"` : ''} failed (${cause.replace(/\.$/, '')}). ${undone}`);
    this.name = 'PassphraseRotationError';
  }
}

interface Added {
  repo: Repository;
  before: string[];
  oldCurrent: string;
  newId: string | null;
}

function message(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

export async function rotatePassphrase(deps: RotationDeps, options: RotationOptions = {}): Promise<{ report: RotationReport; passphrase: string }> {
  mkdirSync(backupsDir(deps.dataDir), { recursive: true, mode: 0o700 });
  const lock = tryBackupLock(deps.dataDir);
  if (!lock) throw new RotationBusyError();
  try {
    return await rotateLocked(deps, options);
  } finally {
    lock.release();
  }
}

async function rotateLocked(deps: RotationDeps, options: RotationOptions): Promise<{ report: RotationReport; passphrase: string }> {
  const { db, store, logger, restic } = deps;
  const warnings: string[] = [];
  // Leftovers of a rotation that crashed, then old keys an earlier rotation could not remove.
  const reconciled = await reconcilePassphrase(deps);
  warnings.push(...reconciled.warnings);
  const old = await readResticPassphrase(db, store);
  logger.addSecret(old);
  for (const [name, error] of await removeOldKeys(deps, old)) {
    if (error) warnings.push(`An old key on "${name}" from an earlier rotation is still there: ${error}`);
  }

  const next = newPassphrase();
  logger.addSecret(next);
  try {
    await store.set(RESTIC_PASSPHRASE_NEXT, next);
  } catch (err) {
    await store.delete(RESTIC_PASSPHRASE_NEXT).catch(() => false);
    throw new PassphraseRotationError(`saving the new passphrase in ${store.description}`, null, message(err), 'No repository was touched.');
  }
  await options.onStep?.('pending-saved');
  logger.info('passphrase rotation: new passphrase pending');

  const repos = listRepositories(db);
  const added: Added[] = [];
  const skipped = new Map<string, string>();
  let failing: { step: string; repo: string | null } = { step: 'adding the new key', repo: null };
  try {
    for (const repo of repos) {
      failing = { step: 'opening the repository with the current passphrase', repo: repo.name };
      const target = toResticRepo(repo, deps.vault, old);
      if (!(await restic.isInitialized(target))) {
        skipped.set(repo.name, 'not created yet (the next backup creates it with the new passphrase)');
        logger.info('passphrase rotation: repository not created yet, skipped', { repository: repo.name });
        continue;
      }
      const keys = await restic.listKeys(target);
      const oldCurrent = keys.find((k) => k.current)?.id ?? '';
      const entry: Added = { repo, before: keys.map((k) => k.id), oldCurrent, newId: null };
      added.push(entry);
      failing = { step: 'adding the new key', repo: repo.name };
      await options.onStep?.('adding-key', repo.name);
      entry.newId = await restic.addKey(target, next);
      logger.info('passphrase rotation: new key added', { repository: repo.name, key: entry.newId });
      await options.onStep?.('key-added', repo.name);
    }
    await options.onStep?.('keys-added');
    for (const entry of added) {
      failing = { step: 'opening the repository with the new passphrase', repo: entry.repo.name };
      await verify(restic, toResticRepo(entry.repo, deps.vault, next), entry);
    }
    await options.onStep?.('verified');
    failing = { step: 'recording the old keys', repo: null };
    // Written before the persist: each record keeps the new key, so it is inert (and dropped) if the
    // persist never happens, and complete if the process dies right after it.
    for (const entry of added) recordOldKeys(db, deps.clock, entry.repo.name, { remove: entry.before, keep: entry.newId ?? '' });
  } catch (err) {
    const undone = await undo(deps, added, old);
    throw new PassphraseRotationError(failing.step, failing.repo, message(err), undone);
  }

  await persist(deps, added, old, next);
  await options.onStep?.('passphrase-saved');
  clearRecoveryKitConfirmation(db);
  await store.delete(RESTIC_PASSPHRASE_NEXT).catch((err: unknown) => {
    // Harmless: the next start finds it equal to the current passphrase and drops it.
    logger.warn('the pending passphrase could not be removed from the keychain', { error: message(err) });
  });
  await options.onStep?.('persisted');
  logger.info('passphrase rotation: new passphrase persisted');

  const removal = await removeOldKeys(deps, next);
  for (const [name, error] of removal) {
    if (error) warnings.push(`The old key on "${name}" could not be removed (${error.replace(/\.$/, '')}); Sanad retries after the next backup.`);
  }
  await options.onStep?.('old-keys-removed');
  const repositories: RepositoryRotation[] = repos.map((repo) => {
    const why = skipped.get(repo.name);
    if (why !== undefined) return { name: repo.name, ok: true, skipped: why, old_keys_removed: true };
    return { name: repo.name, ok: true, skipped: null, old_keys_removed: (removal.get(repo.name) ?? null) === null };
  });
  logger.info('passphrase rotated', {
    repositories: repositories.map((r) => `${r.name}:${r.skipped ? 'skipped' : r.old_keys_removed ? 'ok' : 'old key left'}`),
  });
  return { report: { rotated: true, repositories, warnings, notes: notesAfterRotation(db) }, passphrase: next };
}

function notesAfterRotation(db: Db): string[] {
  const notes = [
    'The recovery kit you stored holds the old passphrase: export a new one (`sanad recovery-kit --out FILE`), store it off this machine and confirm it (`sanad recovery-kit --confirm`); until then health warns.',
  ];
  const copies = db.prepare<[], { n: number }>('SELECT COUNT(*) AS n FROM offsite_copies').get()?.n ?? 0;
  if (copies > 0) {
    notes.push(
      `The ${copies} encrypted offsite ${copies === 1 ? 'copy' : 'copies'} made before now stay encrypted with the old passphrase (Sanad does not keep it): keep the old recovery kit until they are pruned.`,
    );
  }
  return notes;
}

/** Step (3): the new passphrase opens the repository, and it is the key just added. */
async function verify(restic: Restic, target: ResticRepo, entry: Added): Promise<void> {
  const current = (await restic.listKeys(target)).find((k) => k.current);
  if (!current || entry.newId === null || !sameKey(current.id, entry.newId)) {
    throw new Error(`the new passphrase opened key ${current?.id ?? '(none)'}, not the key just added`);
  }
}

/** Step (4). A keychain write that fails is read back: only a keychain known to hold the old
 *  passphrase lets the new keys be removed; when it cannot be told, both keys stay. */
async function persist(deps: RotationDeps, added: Added[], old: string, next: string): Promise<void> {
  const { store } = deps;
  try {
    await store.set(RESTIC_PASSPHRASE, next);
    return;
  } catch (err) {
    const holds = await store.get(RESTIC_PASSPHRASE).catch(() => undefined);
    if (holds === next) return;
    const where = `saving the new passphrase in ${store.description}`;
    if (holds === old) throw new PassphraseRotationError(where, null, message(err), await undo(deps, added, old));
    throw new PassphraseRotationError(
      where,
      null,
      message(err),
      'Both the old and the new passphrase open every repository now; restart Sanad so it settles which one the keychain holds, then try again.',
    );
  }
}

/** Undoes (1)–(3) as far as it can, with the old passphrase; says what is left in one sentence. */
async function undo(deps: RotationDeps, added: Added[], old: string): Promise<string> {
  const { db, logger, restic } = deps;
  const left: string[] = [];
  for (const entry of added) {
    forgetOldKeys(db, entry.repo.name);
    const target = toResticRepo(entry.repo, deps.vault, old);
    try {
      // Every key that was not there before, found with the old passphrase: this also catches a key
      // whose add succeeded but whose id never came back.
      const extra = (await restic.listKeys(target)).filter((k) => !k.current && !entry.before.some((id) => sameKey(id, k.id)));
      for (const key of extra) await restic.removeKey(target, key.id);
    } catch (err) {
      left.push(entry.repo.name);
      logger.warn('passphrase rotation: the new key could not be removed again', { repository: entry.repo.name, error: message(err) });
      // Its password is about to be forgotten, so the key opens nothing; still, remove it later.
      if (entry.newId) recordOldKeys(db, deps.clock, entry.repo.name, { remove: [entry.newId], keep: entry.oldCurrent });
    }
  }
  await deps.store.delete(RESTIC_PASSPHRASE_NEXT).catch(() => false);
  const stays = 'Nothing was revoked: the current passphrase still opens every repository.';
  return left.length === 0 ? stays : `${stays} An unused new key remains on ${left.map((n) => `"${n}"`).join(', ')} and is removed after the next backup.`;
}
