// Where a Sanad keeps its data: --data-dir, else SANAD_DATA_DIR, else the OS's app-data folder.
import { chmodSync, existsSync, renameSync, statSync } from 'node:fs';
import { homedir, platform } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { storePath } from '../files/data-dir-layout.js';
import { makeDirsSync } from '../files/make-dirs.js';

// Windows: under %LOCALAPPDATA%, which stays on this computer. The roaming %APPDATA% is copied to
// and from a server at every logon where roaming profiles are on: no place for a growing store and
// model files. Earlier versions of Sanad used it; windowsDataDir moves such a data dir once.
export function defaultDataDir(env: NodeJS.ProcessEnv = process.env, os: NodeJS.Platform = platform()): string {
  if (os === 'win32') return join(env.LOCALAPPDATA ?? join(homedir(), 'AppData', 'Local'), 'Sanad');
  if (os === 'darwin') return join(homedir(), 'Library', 'Application Support', 'Sanad');
  return join(env.XDG_DATA_HOME ?? join(homedir(), '.local', 'share'), 'sanad');
}

/** Where earlier versions of Sanad kept their data on Windows. */
export const roamingDataDir = (env: NodeJS.ProcessEnv): string => join(env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'), 'Sanad');

export function resolveDataDir(flag: string | undefined, env: NodeJS.ProcessEnv = process.env, os: NodeJS.Platform = platform()): string {
  const chosen = flag ?? env.SANAD_DATA_DIR;
  if (chosen !== undefined) return resolve(chosen);
  return resolve(os === 'win32' ? windowsDataDir(env).dataDir : defaultDataDir(env, os));
}

/**
 * The Windows data dir, after moving a roaming one (from an older Sanad) to the local place once:
 * a rename, so it is all or nothing, and checked after (the store is where it should be and the old
 * folder is gone). Where it cannot be moved (a file still open in it, the roaming folder on another
 * volume) the data stays where it is and is used there; the next start tries again.
 */
export function windowsDataDir(env: NodeJS.ProcessEnv): { dataDir: string; moved: boolean; stayed?: string } {
  const local = defaultDataDir(env, 'win32');
  const roaming = roamingDataDir(env);
  if (existsSync(local) || !existsSync(storePath(roaming))) return { dataDir: local, moved: false };
  try {
    makeDirsSync(dirname(local));
    renameSync(roaming, local);
  } catch (err) {
    return { dataDir: roaming, moved: false, stayed: `${errorCode(err) ?? 'error'}: ${err instanceof Error ? err.message : String(err)}` };
  }
  if (!existsSync(storePath(local)) || existsSync(roaming))
    return { dataDir: existsSync(storePath(local)) ? local : roaming, moved: false, stayed: 'the store was not where the move should have put it' };
  return { dataDir: local, moved: true };
}

/** The data dir cannot be used: its message is one sentence and what to do. */
export class DataDirError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DataDirError';
  }
}

const CHOOSE = 'choose another with --data-dir or SANAD_DATA_DIR';

/** Refuses, before anything is written anywhere, a data dir path that names something other than a folder. */
export function assertDataDirUsable(dataDir: string): void {
  let stat;
  try {
    stat = statSync(dataDir);
  } catch (err) {
    if (errorCode(err) === 'ENOENT') return; // made by makeDataDir
    if (errorCode(err) === 'ENOTDIR') throw new DataDirError(`The data dir ${dataDir} is inside a file, not a folder: ${CHOOSE}.`);
    if (errorCode(err) === 'EACCES')
      throw new DataDirError(`Sanad may not look into the data dir ${dataDir} (permission denied): ${CHOOSE}, or fix its permissions.`);
    throw err;
  }
  if (!stat.isDirectory()) throw new DataDirError(`The data dir ${dataDir} is a file, not a folder: ${CHOOSE}.`);
}

/** Creates the data dir (0700, parents too) or says in one sentence why it cannot. */
export function makeDataDir(dataDir: string): void {
  assertDataDirUsable(dataDir);
  try {
    makeDirsSync(dataDir);
    chmodSync(dataDir, 0o700);
  } catch (err) {
    const code = errorCode(err);
    if (code === 'EACCES' || code === 'EPERM')
      throw new DataDirError(`Sanad may not create or use the data dir ${dataDir} (permission denied): ${CHOOSE}, or fix its permissions.`);
    if (code === 'EROFS') throw new DataDirError(`The data dir ${dataDir} is on a read-only disk: ${CHOOSE}.`);
    if (code === 'ENOSPC') throw new DataDirError(`The disk holding ${dataDir} is full: free some space or ${CHOOSE}.`);
    if (code === 'ENOENT') throw new DataDirError(`Sanad cannot create the data dir ${dataDir} there: ${CHOOSE}.`);
    if (code === 'EEXIST' || code === 'ENOTDIR') throw new DataDirError(`The data dir ${dataDir} is a file, not a folder: ${CHOOSE}.`);
    throw err;
  }
}

function errorCode(err: unknown): string | undefined {
  return err instanceof Error && 'code' in err && typeof err.code === 'string' ? err.code : undefined;
}
