// Finding restic and learning its version once. Order: an explicitly configured path (authoritative:
// if the user set one and it is wrong, saying so beats silently running some other restic), then the
// copy bundled with desktop builds, then PATH. The version decides which flags and exit codes exist.
import { say } from '../../contract/said/index.js';
import { access, stat } from 'node:fs/promises';
import { constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import { runChild } from '../../process/spawn.js';
import { ResticError, describe } from './errors.js';

export type ResticVersion = [major: number, minor: number, patch: number];

export interface ResticBinary {
  path: string;
  version: ResticVersion;
}

export interface FindResticOptions {
  /** From settings; when set, only this path is tried. */
  configuredPath?: string;
  /** Where a desktop build ships its own restic. */
  bundledPath?: string;
  /** The PATH to search; defaults to this process's PATH. */
  searchPath?: string;
}

const versions = new Map<string, Promise<ResticVersion>>();

async function isExecutableFile(path: string): Promise<boolean> {
  try {
    const info = await stat(path);
    await access(path, constants.X_OK);
    return info.isFile();
  } catch {
    return false;
  }
}

async function locate(options: FindResticOptions): Promise<string | null> {
  if (options.configuredPath !== undefined) {
    return (await isExecutableFile(options.configuredPath)) ? options.configuredPath : null;
  }
  if (options.bundledPath !== undefined && (await isExecutableFile(options.bundledPath))) return options.bundledPath;
  const name = process.platform === 'win32' ? 'restic.exe' : 'restic';
  for (const dir of (options.searchPath ?? process.env.PATH ?? '').split(delimiter)) {
    if (dir === '') continue;
    const candidate = join(dir, name);
    if (await isExecutableFile(candidate)) return candidate;
  }
  return null;
}

/** `restic 0.14.0 compiled with go1.19.8 on linux/amd64`, `restic 0.17.3-dev (compiled manually) …` */
export function parseVersion(text: string): ResticVersion | null {
  const m = /restic (\d+)\.(\d+)\.(\d+)/.exec(text);
  return m ? [Number(m[1]), Number(m[2]), Number(m[3])] : null;
}

async function detectVersion(path: string): Promise<ResticVersion> {
  const result = await runChild({ command: path, args: ['version'], env: {} });
  const version = parseVersion([...result.stdoutTail, ...result.stderrTail].join('\n'));
  if (result.code !== 0 || !version) {
    throw new ResticError('missing_binary', say('restic.not_restic', { path }), result.code, result.stderrTail);
  }
  return version;
}

export async function findRestic(options: FindResticOptions = {}): Promise<ResticBinary> {
  const path = await locate(options);
  if (path === null && options.configuredPath !== undefined) {
    throw new ResticError('missing_binary', say('restic.not_at_path', { path: options.configuredPath }));
  }
  if (path === null) throw new ResticError('missing_binary', describe('missing_binary', 'version', '', null, ''));
  let pending = versions.get(path);
  if (!pending) {
    pending = detectVersion(path);
    versions.set(path, pending);
    // A failed probe is not cached: the user may install or fix restic and retry.
    pending.catch(() => versions.delete(path));
  }
  return { path, version: await pending };
}

export function atLeast(binary: ResticBinary, major: number, minor: number): boolean {
  const [a, b] = binary.version;
  return a > major || (a === major && b >= minor);
}
