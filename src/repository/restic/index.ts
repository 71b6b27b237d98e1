// The restic driver's public API. Each command lives in its own file and takes the runtime (which
// restic, where its cache goes, the logger) first; `createRestic` binds it once for callers.
import { backup, type BackupOptions, type BackupResult } from './backup.js';
import { check, type CheckResult } from './check.js';
import { forget, type ForgetOptions, type ForgetResult } from './forget.js';
import { init } from './init.js';
import { isInitialized } from './cat-config.js';
import { addKey, listKeys, removeKey, type ResticKey } from './keys.js';
import { snapshots, type Snapshot } from './snapshots.js';
import { unlock } from './unlock.js';
import { restore, type RestoreOptions } from './restore.js';
import { dumpText } from './dump.js';
import { ls, type LsNode } from './ls.js';
import { listLocks, type ResticLock } from './locks.js';
import { listIds, type ResticFileType } from './list.js';
import type { ResticRepo } from './repo.js';
import type { ResticRuntime } from './run.js';

export type { ResticRepo } from './repo.js';
export type { ResticRuntime } from './run.js';
export type { BackupOptions, BackupProgress, BackupResult, BackupSummary } from './backup.js';
export type { CheckResult, SubsetRead } from './check.js';
export type { LsNode } from './ls.js';
export type { ResticLock } from './locks.js';
export type { ResticFileType } from './list.js';
export type { ForgetOptions, ForgetResult } from './forget.js';
export type { ResticKey } from './keys.js';
export type { Snapshot } from './snapshots.js';
export { ResticError, classifyExit, type ResticErrorKind } from './errors.js';
export { findRestic, atLeast, parseVersion, type ResticBinary, type ResticVersion, type FindResticOptions } from './binary.js';
export type { RestoreOptions } from './restore.js';
export { assertSnapshotId } from './restore.js';
export { backup, check, restore, dumpText, forget, init, isInitialized, addKey, listKeys, removeKey, snapshots, unlock, ls, listLocks, listIds };

type Signal = { signal?: AbortSignal };

export interface Restic {
  runtime: ResticRuntime;
  init(repo: ResticRepo, options?: Signal): Promise<void>;
  isInitialized(repo: ResticRepo, options?: Signal): Promise<boolean>;
  backup(repo: ResticRepo, paths: readonly string[], options: BackupOptions): Promise<BackupResult>;
  snapshots(repo: ResticRepo, options?: { tags?: readonly string[] } & Signal): Promise<Snapshot[]>;
  forget(repo: ResticRepo, options: ForgetOptions): Promise<ForgetResult>;
  check(repo: ResticRepo, options?: { readDataSubset?: string } & Signal): Promise<CheckResult>;
  unlock(repo: ResticRepo, options?: Signal): Promise<void>;
  listKeys(repo: ResticRepo, options?: Signal): Promise<ResticKey[]>;
  addKey(repo: ResticRepo, newPassword: string, options?: Signal): Promise<string>;
  removeKey(repo: ResticRepo, id: string, options?: Signal): Promise<void>;
  restore(repo: ResticRepo, snapshotId: string, options: RestoreOptions): Promise<void>;
  dumpText(repo: ResticRepo, snapshotId: string, path: string, options?: { maxBytes?: number } & Signal): Promise<string>;
  ls(repo: ResticRepo, snapshotId: string, options?: Signal): Promise<LsNode[]>;
  listLocks(repo: ResticRepo, options?: Signal): Promise<ResticLock[]>;
  listIds(repo: ResticRepo, type: ResticFileType, options?: Signal): Promise<string[]>;
}

export function createRestic(runtime: ResticRuntime): Restic {
  return {
    runtime,
    init: (repo, o) => init(runtime, repo, o),
    isInitialized: (repo, o) => isInitialized(runtime, repo, o),
    backup: (repo, paths, o) => backup(runtime, repo, paths, o),
    snapshots: (repo, o) => snapshots(runtime, repo, o),
    forget: (repo, o) => forget(runtime, repo, o),
    check: (repo, o) => check(runtime, repo, o),
    unlock: (repo, o) => unlock(runtime, repo, o),
    listKeys: (repo, o) => listKeys(runtime, repo, o),
    addKey: (repo, pw, o) => addKey(runtime, repo, pw, o),
    removeKey: (repo, id, o) => removeKey(runtime, repo, id, o),
    restore: (repo, id, o) => restore(runtime, repo, id, o),
    dumpText: (repo, id, path, o) => dumpText(runtime, repo, id, path, o),
    ls: (repo, id, o) => ls(runtime, repo, id, o),
    listLocks: (repo, o) => listLocks(runtime, repo, o),
    listIds: (repo, type, o) => listIds(runtime, repo, type, o),
  };
}
