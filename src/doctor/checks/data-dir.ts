// The data dir and what it sits on: the store whole (read-only quick_check), the folder writable,
// the disk's free space against the store and the next generation, and the port.
import { accessSync, constants, existsSync, readFileSync, statSync } from 'node:fs';
import { restoreAdvice } from '../../restore/damaged-store.js';
import { serviceFilePath } from '../../store/service-file.js';
import { formatBytes, freeSpace } from '../../store/disk.js';
import { FULL_BELOW_BYTES, LOW_MARGIN_BYTES } from '../../store/disk-state.js';
import { storePath } from '../../store/open.js';
import { inspectStore } from '../../store/store-check.js';
import { fail, ok, warn, type DoctorCheck } from '../check.js';
import { createServer } from 'node:net';

export function storeCheck(dataDir: string): DoctorCheck {
  const path = storePath(dataDir);
  const found = inspectStore(path);
  if (found.state === 'absent') return ok('store', `no store yet at ${path} (it is made on the first start)`);
  if (found.state === 'ok') return ok('store', `${path} passes SQLite's quick_check`);
  return fail('store', `the store at ${path} is damaged (${found.reason})`, restoreAdvice(dataDir));
}

export function dataDirCheck(dataDir: string): DoctorCheck {
  if (!existsSync(dataDir)) return ok('data_dir', `${dataDir} does not exist yet (it is made on the first start, 0700)`);
  if (!statSync(dataDir).isDirectory()) return fail('data_dir', `${dataDir} is a file, not a folder`, 'choose another data dir with --data-dir or SANAD_DATA_DIR');
  try {
    accessSync(dataDir, constants.W_OK);
  } catch {
    return fail('data_dir', `${dataDir} is not writable by this user`, `fix its owner or mode (chown, chmod 700 ${dataDir})`);
  }
  const mode = statSync(dataDir).mode & 0o777;
  return mode & 0o077 ? warn('data_dir', `${dataDir} is open to other users (mode ${mode.toString(8)})`, `chmod 700 ${dataDir}`) : ok('data_dir', `${dataDir} is writable and private (mode ${mode.toString(8)})`);
}

export function diskCheck(dataDir: string): DoctorCheck {
  const space = freeSpace(dataDir);
  if (space === null) return warn('disk', `the free space under ${dataDir} could not be read`, null);
  const store = existsSync(storePath(dataDir)) ? statSync(storePath(dataDir)).size : 0;
  const needed = store + LOW_MARGIN_BYTES;
  const free = `${formatBytes(space.free)} free on the disk holding ${dataDir}`;
  if (space.free < FULL_BELOW_BYTES) return fail('disk', `the disk holding ${dataDir} is full (${formatBytes(space.free)} free)`, 'free some space on it; a running Sanad carries on by itself');
  if (space.free < needed) return warn('disk', `${free}; the next backup needs about ${formatBytes(needed)}`, 'free some space: the next backup may not fit');
  return ok('disk', `${free} (the next backup needs about ${formatBytes(needed)})`);
}

function listenable(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const srv = createServer();
    srv.once('error', () => resolve(false));
    srv.listen(port, host, () => srv.close(() => resolve(true)));
  });
}

/** `self`: a Sanad serving this data dir (its own port is then in use by itself, not taken). */
export async function portCheck(dataDir: string, port: number, self: number | null): Promise<DoctorCheck> {
  if (self === port) return ok('port', `port ${port} is served by this Sanad`);
  let running: number | null = null;
  try {
    const info: unknown = JSON.parse(readFileSync(serviceFilePath(dataDir), 'utf8'));
    if (typeof info === 'object' && info !== null && 'port' in info && typeof info.port === 'number') running = info.port;
  } catch {
    // not serving
  }
  if (running === port) return ok('port', `port ${port} is served by the Sanad running on ${dataDir}`);
  return (await listenable('127.0.0.1', port))
    ? ok('port', `port ${port} on 127.0.0.1 is free`)
    : fail('port', `port ${port} on 127.0.0.1 is taken by another program`, 'stop it, or start Sanad with `--port N` (`--port 0` picks a free one)');
}
