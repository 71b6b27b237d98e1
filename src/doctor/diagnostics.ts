// `sanad doctor`: what is wrong on this machine and how to fix it, one line per check, from code
// the GUI can call too. Every check only reads: it never writes to the store or a repository.
import { restoreAdvice } from '../appliance/damaged-store.js';
import { findRestic } from '../backup/restic/index.js';
import { openSecretStore } from '../secrets/open-secret-store.js';
import { formatBytes, freeSpace } from '../store/disk.js';
import { FULL_BELOW_BYTES, LOW_MARGIN_BYTES } from '../store/disk-state.js';
import { storePath } from '../store/open.js';
import { inspectStore } from '../store/store-check.js';

export type DoctorStatus = 'ok' | 'warn' | 'fail';

export interface DoctorCheck {
  name: string;
  status: DoctorStatus;
  /** What was found, one sentence. */
  detail: string;
  /** What to do about it (null when nothing is to be done). */
  fix: string | null;
}

export interface DoctorInput {
  dataDir: string;
  secretsFile?: string | undefined;
}

const ok = (name: string, detail: string): DoctorCheck => ({ name, status: 'ok', detail, fix: null });

function nodeCheck(): DoctorCheck {
  const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
  return major > 20 || (major === 20 && minor >= 18)
    ? ok('node', `Node ${process.versions.node}`)
    : { name: 'node', status: 'fail', detail: `Node ${process.versions.node} is older than Sanad needs (20.18)`, fix: 'install Node 20.18 or newer' };
}

function storeCheck(dataDir: string): DoctorCheck {
  const path = storePath(dataDir);
  const found = inspectStore(path);
  if (found.state === 'absent') return ok('store', `no store yet at ${path} (it is made on the first start)`);
  if (found.state === 'ok') return ok('store', `${path} passes SQLite's quick_check`);
  return { name: 'store', status: 'fail', detail: `the store at ${path} is damaged (${found.reason})`, fix: restoreAdvice(dataDir) };
}

function diskCheck(dataDir: string): DoctorCheck {
  const space = freeSpace(dataDir);
  if (space === null) return { name: 'disk', status: 'warn', detail: `the free space under ${dataDir} could not be read`, fix: null };
  const free = `${formatBytes(space.free)} free of ${formatBytes(space.total)} on the disk holding ${dataDir}`;
  if (space.free < FULL_BELOW_BYTES) return { name: 'disk', status: 'fail', detail: `the disk holding ${dataDir} is full (${formatBytes(space.free)} free)`, fix: 'free some space on it; Sanad carries on by itself' };
  if (space.free < LOW_MARGIN_BYTES) return { name: 'disk', status: 'warn', detail: free, fix: 'free some space: the next backup may not fit' };
  return ok('disk', free);
}

async function keychainCheck(input: DoctorInput): Promise<DoctorCheck> {
  try {
    const store = await openSecretStore(input.dataDir, input.secretsFile);
    return input.secretsFile
      ? { name: 'keychain', status: 'warn', detail: `the secrets are in a file (${store.description}), not in the OS keychain`, fix: 'move them to the keychain when one is available' }
      : ok('keychain', `${store.description} answers`);
  } catch (err) {
    return { name: 'keychain', status: 'fail', detail: err instanceof Error ? err.message : String(err), fix: 'start a desktop session (or a Secret Service), or opt in to a secrets file with --secrets-file' };
  }
}

async function resticCheck(): Promise<DoctorCheck> {
  try {
    const binary = await findRestic({ ...(process.env.SANAD_RESTIC ? { configuredPath: process.env.SANAD_RESTIC } : {}) });
    return ok('restic', `restic ${binary.version.join('.')} at ${binary.path}`);
  } catch (err) {
    return { name: 'restic', status: 'fail', detail: err instanceof Error ? err.message : String(err), fix: 'install restic (apt install restic)' };
  }
}

export async function runDiagnostics(input: DoctorInput): Promise<DoctorCheck[]> {
  return [nodeCheck(), storeCheck(input.dataDir), diskCheck(input.dataDir), await keychainCheck(input), await resticCheck()];
}
