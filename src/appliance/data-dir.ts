// Where a Sanad keeps its data: --data-dir, else SANAD_DATA_DIR, else the OS's app-data folder.
import { chmodSync, existsSync, mkdirSync, statSync } from 'node:fs';
import { homedir, platform } from 'node:os';
import { dirname, join, resolve } from 'node:path';

export function defaultDataDir(env: NodeJS.ProcessEnv = process.env, os: NodeJS.Platform = platform()): string {
  if (os === 'win32') return join(env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'), 'Sanad');
  if (os === 'darwin') return join(homedir(), 'Library', 'Application Support', 'Sanad');
  return join(env.XDG_DATA_HOME ?? join(homedir(), '.local', 'share'), 'sanad');
}

export function resolveDataDir(flag: string | undefined, env: NodeJS.ProcessEnv = process.env): string {
  return resolve(flag ?? env.SANAD_DATA_DIR ?? defaultDataDir(env));
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
    if (errorCode(err) === 'EACCES') throw new DataDirError(`Sanad may not look into the data dir ${dataDir} (permission denied): ${CHOOSE}, or fix its permissions.`);
    throw err;
  }
  if (!stat.isDirectory()) throw new DataDirError(`The data dir ${dataDir} is a file, not a folder: ${CHOOSE}.`);
}

/** Creates the data dir (0700, parents too) or says in one sentence why it cannot. */
export function makeDataDir(dataDir: string): void {
  assertDataDirUsable(dataDir);
  try {
    makeFolders(dataDir);
    chmodSync(dataDir, 0o700);
  } catch (err) {
    const code = errorCode(err);
    if (code === 'EACCES' || code === 'EPERM') throw new DataDirError(`Sanad may not create or use the data dir ${dataDir} (permission denied): ${CHOOSE}, or fix its permissions.`);
    if (code === 'EROFS') throw new DataDirError(`The data dir ${dataDir} is on a read-only disk: ${CHOOSE}.`);
    if (code === 'ENOSPC') throw new DataDirError(`The disk holding ${dataDir} is full: free some space or ${CHOOSE}.`);
    if (code === 'ENOENT') throw new DataDirError(`Sanad cannot create the data dir ${dataDir} there: ${CHOOSE}.`);
    if (code === 'EEXIST' || code === 'ENOTDIR') throw new DataDirError(`The data dir ${dataDir} is a file, not a folder: ${CHOOSE}.`);
    throw err;
  }
}

/** mkdir -p, one level at a time: Node's recursive mkdirSync spins forever under /proc. */
function makeFolders(dir: string): void {
  const missing: string[] = [];
  for (let d = resolve(dir); !existsSync(d); d = dirname(d)) {
    missing.unshift(d);
    if (dirname(d) === d) break;
  }
  for (const d of missing) mkdirSync(d, { mode: 0o700 });
}

function errorCode(err: unknown): string | undefined {
  return err instanceof Error && 'code' in err && typeof err.code === 'string' ? err.code : undefined;
}
