// A folder target (an external disk, another folder on this computer) is one of restic's own local
// repositories. restic creates a repository wherever it is told to, so a disk that is not connected
// would leave its empty mount point to receive a new repository on the computer's own disk, and
// the backups people count on would silently be somewhere else. These checks run before restic is
// started on a folder target, so that never happens.
import { existsSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { Spoken } from '../contract/said.js';
import { say } from '../contract/said/index.js';

/**
 * The mount point of the filesystem that holds `location` (or will, once it is created): the
 * highest folder on the same device. Null when that is the root filesystem (nothing to unplug).
 */
export function mountPointOf(location: string): string | null {
  let at = resolve(location);
  while (!existsSync(at)) {
    const up = dirname(at);
    if (up === at) return null;
    at = up;
  }
  const device = statSync(at).dev;
  for (;;) {
    const up = dirname(at);
    if (up === at) return null;
    if (statSync(up).dev !== device) return at;
    at = up;
  }
}

/** Whether a filesystem is mounted at `mountPoint` now: it exists and is on another device than its parent. */
export function isMounted(mountPoint: string): boolean {
  try {
    return statSync(mountPoint).dev !== statSync(dirname(mountPoint)).dev;
  } catch {
    return false;
  }
}

/** The repositories that are folders on a disk of this computer (restic's local backend). */
export function isOnDisk(type: string): boolean {
  return type === 'local' || type === 'folder';
}

export interface FolderTarget {
  type: string;
  name: string;
  location: string;
  options: { mount_point?: string };
  /** Set once a backup reached it: from then on its repository must be there. */
  last_ok_at: number | null;
}

/** Why restic must not be started on this folder target now; null when its disk is there, or it is no folder target. */
export function folderAbsence(target: FolderTarget): Spoken | null {
  if (target.type !== 'folder') return null;
  const mount = target.options.mount_point;
  if (mount !== undefined && !isMounted(mount)) return say('folder.not_connected', { repo: target.name, mount });
  // Backed up to before but no repository there: another disk at the same place, or one wiped.
  if (target.last_ok_at !== null && !existsSync(join(target.location, 'config'))) return say('folder.gone', { repo: target.name, path: target.location });
  return null;
}

export class FolderMissingError extends Error {
  readonly said: { code: string; params: Spoken['params'] };
  constructor(spoken: Spoken) {
    super(spoken.detail);
    this.name = 'FolderMissingError';
    this.said = { code: spoken.code, params: spoken.params };
  }
}

/** Throws FolderMissingError when a folder target's disk is not there (other targets pass). */
export function assertFolderPresent(target: FolderTarget): void {
  const absent = folderAbsence(target);
  if (absent) throw new FolderMissingError(absent);
}
