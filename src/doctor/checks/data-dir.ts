// The data dir and what it sits on: the store whole (read-only quick_check), the folder writable,
// the disk's free space against the store and the next generation, and the port.
import { accessSync, constants, existsSync, readFileSync, statSync } from 'node:fs';
import { say } from '../../contract/said/index.js';
import { restoreAdviceSaid } from '../../restore/damaged-store.js';
import { freeSpace } from '../../store/disk.js';
import { FULL_BELOW_BYTES, LOW_MARGIN_BYTES } from '../../store/disk-state.js';
import { inspectStore } from '../../store/store-check.js';
import { fail, ok, warn, type DoctorCheck } from '../check.js';
import { createServer } from 'node:net';
import { serviceFilePath, storePath } from '../../files/data-dir-layout.js';

export function storeCheck(dataDir: string): DoctorCheck {
  const path = storePath(dataDir);
  const found = inspectStore(path);
  if (found.state === 'absent') return ok('store', say('doctor.store_absent', { path }));
  if (found.state === 'ok') return ok('store', say('doctor.store_ok', { path }));
  return fail('store', say('doctor.store_damaged', { path, reason: found.reason }), restoreAdviceSaid(dataDir));
}

export function dataDirCheck(dataDir: string): DoctorCheck {
  if (!existsSync(dataDir)) return ok('data_dir', say('doctor.dir_absent', { path: dataDir }));
  if (!statSync(dataDir).isDirectory()) return fail('data_dir', say('doctor.dir_is_file', { path: dataDir }), say('doctor.fix.data_dir_elsewhere'));
  try {
    accessSync(dataDir, constants.W_OK);
  } catch {
    return fail('data_dir', say('doctor.dir_not_writable', { path: dataDir }), say('doctor.fix.data_dir_owner', { path: dataDir }));
  }
  const mode = statSync(dataDir).mode & 0o777;
  const params = { path: dataDir, mode: mode.toString(8) };
  return mode & 0o077
    ? warn('data_dir', say('doctor.dir_open', params), say('doctor.fix.data_dir_mode', { path: dataDir }))
    : ok('data_dir', say('doctor.dir_ok', params));
}

export function diskCheck(dataDir: string): DoctorCheck {
  const space = freeSpace(dataDir);
  if (space === null) return warn('disk', say('doctor.disk_unknown', { path: dataDir }), null);
  const store = existsSync(storePath(dataDir)) ? statSync(storePath(dataDir)).size : 0;
  const needed = store + LOW_MARGIN_BYTES;
  const params = { path: dataDir, free_bytes: space.free, needed_bytes: needed };
  if (space.free < FULL_BELOW_BYTES) return fail('disk', say('doctor.disk_full', params), say('doctor.fix.disk_full'));
  if (space.free < needed) return warn('disk', say('doctor.disk_low', params), say('doctor.fix.disk_low'));
  return ok('disk', say('doctor.disk_ok', params));
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
  if (self === port) return ok('port', say('doctor.port_self', { port }));
  let running: number | null = null;
  try {
    const info: unknown = JSON.parse(readFileSync(serviceFilePath(dataDir), 'utf8'));
    if (typeof info === 'object' && info !== null && 'port' in info && typeof info.port === 'number') running = info.port;
  } catch {
    // not serving
  }
  if (running === port) return ok('port', say('doctor.port_running', { port, path: dataDir }));
  return (await listenable('127.0.0.1', port))
    ? ok('port', say('doctor.port_free', { port }))
    : fail('port', say('doctor.port_taken', { port }), say('doctor.fix.port'));
}
