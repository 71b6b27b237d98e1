// Every path a backup names is checked before restore touches it: a backup may be forged (a leaked
// offsite bucket, a damaged snapshot), and its manifest decides which files restore moves. A store
// name is a plain relative path inside the generation's folder; a generation folder and a model path
// are absolute and normalised; no `..`, no NUL; and the file to move must be a regular file whose
// real path (no symlink on the way, restic restores symlinks as symlinks) is inside restic's
// restore folder. Anything else stops the restore with one sentence, before any file moved.
import { lstat, realpath } from 'node:fs/promises';
import { isAbsolute, join, normalize, relative, sep } from 'node:path';

export class ForgedPathError extends Error {
  constructor(what: string, path: string, why: string) {
    super(`The backup names ${what} "${printable(path)}", which ${why}: this generation looks forged or damaged; restore another one.`);
    this.name = 'ForgedPathError';
  }
}

function printable(s: string): string {
  return s.replace(/[^\x20-\x7e]/g, '?').slice(0, 200);
}

function hasDotDot(p: string): boolean {
  return p.split(/[\\/]/).includes('..');
}

/** A store's name: relative, normalised, inside its folder. */
export function checkRelative(path: string, what: string): string {
  if (path === '' || path.includes('\0') || isAbsolute(path) || hasDotDot(path) || normalize(path) !== path || path.startsWith(`.${sep}`)) {
    throw new ForgedPathError(what, path, 'is not a plain relative path inside its folder');
  }
  return path;
}

/** A folder or model path as it was backed up: absolute and normalised. */
export function checkAbsolute(path: string, what: string): string {
  if (path.includes('\0') || !isAbsolute(path) || hasDotDot(path) || normalize(path) !== path) {
    throw new ForgedPathError(what, path, 'is not a normalised absolute path');
  }
  return path;
}

function inside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel);
}

/** `root` joined with `parts`, checked to be a regular file really inside `root`. */
export async function fileInside(root: string, what: string, ...parts: string[]): Promise<string> {
  const path = join(root, ...parts);
  const shown = parts.join('/');
  if (!inside(root, path)) throw new ForgedPathError(what, shown, 'points outside the restored files');
  const [realRoot, realPath] = await Promise.all([realpath(root), realpath(path).catch(() => null)]);
  if (realPath === null) throw new ForgedPathError(what, shown, 'is not among the restored files');
  if (realPath !== join(realRoot, relative(root, path)) || !inside(realRoot, realPath)) throw new ForgedPathError(what, shown, 'goes through a symbolic link');
  if (!(await lstat(path)).isFile()) throw new ForgedPathError(what, shown, 'is not a regular file');
  return path;
}
