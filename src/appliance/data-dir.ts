// Where a Sanad keeps its data: --data-dir, else SANAD_DATA_DIR, else the OS's app-data folder.
import { homedir, platform } from 'node:os';
import { join, resolve } from 'node:path';

export function defaultDataDir(env: NodeJS.ProcessEnv = process.env, os: NodeJS.Platform = platform()): string {
  if (os === 'win32') return join(env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'), 'Sanad');
  if (os === 'darwin') return join(homedir(), 'Library', 'Application Support', 'Sanad');
  return join(env.XDG_DATA_HOME ?? join(homedir(), '.local', 'share'), 'sanad');
}

export function resolveDataDir(flag: string | undefined, env: NodeJS.ProcessEnv = process.env): string {
  return resolve(flag ?? env.SANAD_DATA_DIR ?? defaultDataDir(env));
}
