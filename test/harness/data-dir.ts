// A fresh data dir per test: an admin token and the tiny model registered as "tiny".
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { systemClock, unixSeconds } from '../../src/clock.js';
import { ModelRegistry } from '../../src/engine/registry.js';
import { createClient } from '../../src/store/clients.js';
import { openStore } from '../../src/store/open.js';
import { writeSettings, type Settings } from '../../src/store/settings.js';
import { finishingModelPath, tinyModelPath } from '../fixtures/tiny-model.js';
import { storePath } from '../../src/files/data-dir-layout.js';

export interface PreparedDataDir {
  dataDir: string;
  adminToken: string;
  modelId: string;
  cleanup(): void;
}

// One exit listener for every temp dir (one each would pass Node's limit of ten and warn).
const made: string[] = [];
process.once('exit', () => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

export function tempDir(prefix = 'sanad-test-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}

/** `dataDir` puts it where a test needs it (e.g. on a small disk); by default a fresh temp dir. */
export async function prepareDataDir(settings: Partial<Settings> = {}, dataDir = tempDir('sanad-data-')): Promise<PreparedDataDir> {
  const db = openStore(storePath(dataDir));
  try {
    const now = unixSeconds(systemClock);
    const { token } = createClient(db, 'test-admin', ['admin'], now);
    await new ModelRegistry(db, systemClock).add(await tinyModelPath(1), 'tiny');
    // Tests start many appliances: no scheduled backup or drill unless a test asks for one. An
    // offsite that a test takes down fails at once, as before retries existed; the fault tests
    // (test/faults/offsite-dies) set their own retries.
    writeSettings(db, { backup_paused: true, drill_paused: true, offsite_retries: 0, ...settings }, now);
    return { dataDir, adminToken: token, modelId: 'tiny', cleanup: () => rmSync(dataDir, { recursive: true, force: true }) };
  } finally {
    db.close();
  }
}

/** Registers the demo model (it answers "OK,demo!" and ends) as `id` in a data dir no service holds yet. */
export async function addDemoModel(dataDir: string, id = 'demo'): Promise<void> {
  await addModelFile(dataDir, id, await finishingModelPath());
}

/** Registers a model file under an id in a data dir no service holds yet. */
export async function addModelFile(dataDir: string, id: string, path: string): Promise<void> {
  const db = openStore(storePath(dataDir));
  try {
    await new ModelRegistry(db, systemClock).add(path, id);
  } finally {
    db.close();
  }
}

/**
 * A new admin token in a data dir no service holds yet: how a test signs in to a restored data dir,
 * whose backed-up clients a restore revokes unless told to keep them (src/restore/reset-exposure.ts).
 */
export function newAdminToken(dataDir: string): string {
  const db = openStore(storePath(dataDir));
  try {
    return createClient(db, 'test-admin-after-restore', ['admin'], unixSeconds(systemClock)).token;
  } finally {
    db.close();
  }
}
