// The restore target: refused unless it is an empty or absent folder well apart from the live
// data dir, and put back exactly as it was (absent or empty) when a restore fails, so a failure
// never leaves a half data dir that looks whole. Paths are compared after resolving symlinks.
import { randomBytes } from 'node:crypto';
import { lstat, mkdir, readdir, realpath, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, relative, resolve } from 'node:path';
import type { Spoken } from '../contract/said.js';
import { say } from '../contract/said/index.js';
import { restoreCheck, type RestoreCheck } from './checks.js';
import { makeDirs } from '../files/make-dirs.js';

export const WORK_PREFIX = '.sanad-restore-';

export type TargetState = 'absent' | 'empty';

/** Why a target was refused, for a GUI that says it in its own words before the click. */
export type TargetRefusal = 'is_live' | 'inside_live' | 'contains_live' | 'not_a_folder' | 'not_empty' | 'interrupted_restore' | 'not_writable';

export interface TargetInspection {
  /** Absolute, symlinks resolved where they exist. */
  path: string;
  checks: RestoreCheck[];
  /** null: refused (see the failed check); nothing was written. */
  state: TargetState | null;
  /** Set when refused. */
  refusal?: TargetRefusal;
}

/** The real path of `p`: its deepest existing ancestor resolved through symlinks, the rest appended. */
export async function realish(p: string): Promise<string> {
  const full = resolve(p);
  let head = full;
  const tail: string[] = [];
  for (;;) {
    try {
      return join(await realpath(head), ...tail.reverse());
    } catch {
      const up = dirname(head);
      if (up === head) return full;
      tail.push(basename(head));
      head = up;
    }
  }
}

function within(inner: string, outer: string): boolean {
  const rel = relative(outer, inner);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

/** Whether `target` may receive a restore; writes nothing. */
export async function inspectTarget(target: string, liveDataDir: string): Promise<TargetInspection> {
  const path = await realish(target);
  const live = await realish(liveDataDir);
  const checks: RestoreCheck[] = [];
  const refuse = (refusal: TargetRefusal, name: string, said: Spoken): TargetInspection => ({
    path,
    checks: [...checks, restoreCheck(name, false, said)],
    state: null,
    refusal,
  });

  if (path === live) return refuse('is_live', 'target:outside_live', say('restore.target_is_live', { path }));
  if (within(path, live)) return refuse('inside_live', 'target:outside_live', say('restore.target_inside_live', { path, live }));
  if (within(live, path)) return refuse('contains_live', 'target:outside_live', say('restore.target_contains_live', { path, live }));
  checks.push(restoreCheck('target:outside_live', true, say('restore.target_apart', { path, live })));

  const info = await lstat(path).catch(() => null);
  if (!info) return { path, checks: [...checks, restoreCheck('target:empty', true, say('restore.target_absent', { path }))], state: 'absent' };
  if (!info.isDirectory()) return refuse('not_a_folder', 'target:empty', say('restore.target_not_folder', { path }));
  const entries = await readdir(path);
  if (entries.length > 0) {
    if (entries.every((e) => e.startsWith(WORK_PREFIX))) {
      return refuse('interrupted_restore', 'target:empty', say('restore.target_interrupted', { path, entry: entries[0] ?? '' }));
    }
    return refuse('not_empty', 'target:empty', say('restore.target_not_empty', { path, count: entries.length }));
  }
  return { path, checks: [...checks, restoreCheck('target:empty', true, say('restore.target_empty', { path }))], state: 'empty' };
}

/**
 * Proves a target that passed inspectTarget can really be made and written, before a restore is
 * started into it: an absent one is made (with its missing parents) and removed again, an empty one
 * gets a file that is removed again. A folder Sanad may not create (`/proc/nope/x`, a read-only
 * disk, another user's folder) is refused here, with why, instead of failing mid-restore.
 */
export async function proveTarget(i: TargetInspection): Promise<TargetInspection> {
  if (i.state === null) return i;
  try {
    if (i.state === 'absent') {
      const top = await makeDirs(i.path);
      if (top !== null) await rm(top, { recursive: true, force: true });
    } else {
      const probe = join(i.path, `.sanad-write-check-${randomBytes(4).toString('hex')}`);
      await writeFile(probe, '', { mode: 0o600, flag: 'wx' });
      await rm(probe, { force: true });
    }
  } catch (err) {
    const reason = err instanceof Error && 'code' in err && typeof err.code === 'string' ? err.code : String(err);
    const said = say('restore.target_not_writable', { path: i.path, reason });
    return { path: i.path, checks: [...i.checks, restoreCheck('target:writable', false, said)], state: null, refusal: 'not_writable' };
  }
  return { ...i, checks: [...i.checks, restoreCheck('target:writable', true, say('restore.target_writable', { path: i.path }))] };
}

export interface PreparedTarget {
  path: string;
  state: TargetState;
  /** The first folder this restore created (the target or a missing parent), removed on failure. */
  createdTop: string | null;
  /** `<target>/.sanad-restore-<random>/`: restic's target and cache; removed at the end. */
  work: string;
}

/** The target changed between its check and its creation (a folder or link appeared, a file was put in). */
export class TargetChangedError extends Error {
  constructor(path: string) {
    super(
      `The restore target ${path} changed while the restore was starting (something was created in it or in its place); choose an empty folder and try again.`,
    );
    this.name = 'TargetChangedError';
  }
}

/**
 * Claims the target as one step with its check: an absent target is created by a mkdir that fails
 * if anything appeared there meanwhile (never follows a link someone put in its place); an empty
 * one must, once the work folder is in it, hold nothing else and still be a real folder.
 */
export async function prepareTarget(path: string, state: TargetState): Promise<PreparedTarget> {
  let createdTop: string | null = null;
  if (state === 'absent') {
    createdTop = await makeDirs(dirname(path));
    try {
      await mkdir(path, { mode: 0o700 });
    } catch (err) {
      if (createdTop !== null) await rm(createdTop, { recursive: true, force: true });
      if (err instanceof Error && 'code' in err && err.code === 'EEXIST') throw new TargetChangedError(path);
      throw err;
    }
    createdTop ??= path;
  }
  const work = join(path, `${WORK_PREFIX}${randomBytes(6).toString('hex')}`);
  await mkdir(work, { mode: 0o700 });
  const info = await lstat(path);
  const entries = await readdir(path);
  if (!info.isDirectory() || entries.length !== 1 || entries[0] !== basename(work)) {
    await rm(work, { recursive: true, force: true });
    throw new TargetChangedError(path);
  }
  return { path, state, createdTop, work };
}

/** Puts the target back as it was: removed if this restore created it, else emptied. */
export async function rollbackTarget(t: PreparedTarget): Promise<void> {
  if (t.state === 'absent') {
    await rm(t.createdTop ?? t.path, { recursive: true, force: true });
    return;
  }
  for (const name of await readdir(t.path).catch(() => [])) await rm(join(t.path, name), { recursive: true, force: true });
}

/**
 * After a crash: puts back the target of a restore that never ended, if its work folder shows it is
 * still that restore's (else the user has since changed it, and it is left alone). `rollbackTop` is
 * what onTargetPrepared gave. True when something was put back.
 */
export async function rollbackLeftoverTarget(path: string, rollbackTop: string | null): Promise<boolean> {
  const entries = await readdir(path).catch(() => null);
  if (entries === null || !entries.some((name) => name.startsWith(WORK_PREFIX))) return false;
  if (rollbackTop !== null) await rm(rollbackTop, { recursive: true, force: true });
  else for (const name of entries) await rm(join(path, name), { recursive: true, force: true });
  return true;
}
