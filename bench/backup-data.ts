// The data set for the backup bench: a data dir with its master secrets, N stored tasks (each
// with a ~2 KB output event, so the store has a real size) and a registered model of the tiny
// GGUF plus M MiB of random bytes (random, so restic's dedup cannot shrink it).
import type { SecretStore } from '../src/secrets/secret-store.js';
import { randomBytes } from 'node:crypto';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { backupDepsFor } from '../src/backup/backup-deps.js';
import type { BackupDeps } from '../src/backup/run-backup.js';
import { systemClock } from '../src/clock.js';
import { ModelRegistry } from '../src/engine/registry.js';
import { newId } from '../src/ids.js';
import { silentLogger } from '../src/log/logger.js';
import { ensureMasterSecrets } from '../src/secrets/master-secrets.js';
import { dataDirScope } from '../src/secrets/scope.js';
import { SecretsFileStore } from '../src/secrets/secrets-file.js';
import { openStore, type Db } from '../src/store/open.js';
import { prepareDataDir, tempDir } from '../test/harness/data-dir.js';
import { storePath } from '../src/files/data-dir-layout.js';

export interface BackupDataSet {
  deps: BackupDeps;
  db: Db;
  /** The secrets file store the data set's master secrets are in. */
  store: SecretStore;
  dataDir: string;
  tasks: number;
  storeBytes: number;
  /** Every registered model's path (the tiny one and the big one). */
  modelPaths: string[];
  modelBytes: number;
}

function fillTasks(db: Db, count: number): void {
  const insResponse = db.prepare(
    `INSERT INTO responses(id, client_id, model, item_id, request, metadata, background, store, created_at)
     VALUES (?, NULL, 'tiny', ?, ?, NULL, 1, 1, ?)`,
  );
  const insTask = db.prepare(
    `INSERT INTO tasks(id, response_id, client_id, model, status, on_restart, last_sequence_number, created_at, updated_at)
     VALUES (?, ?, NULL, 'tiny', 'completed', 'fail', 1, ?, ?)`,
  );
  const insEvent = db.prepare('INSERT INTO task_events(task_id, sequence_number, type, data, created_at) VALUES (?, 1, ?, ?, ?)');
  const request = JSON.stringify({ input: 'Hello', instructions: null, max_output_tokens: 512, temperature: null, top_p: null });
  const now = Math.floor(Date.now() / 1000);
  db.transaction(() => {
    for (let i = 0; i < count; i++) {
      const resp = newId('resp');
      const task = newId('task');
      insResponse.run(resp, newId('msg'), request, now);
      insTask.run(task, resp, now, now);
      insEvent.run(task, 'response.output_text.done', JSON.stringify({ text: randomBytes(1024).toString('hex') }), now);
    }
  })();
}

export async function backupDataSet(tasks: number, modelMiB: number): Promise<BackupDataSet> {
  const prepared = await prepareDataDir();
  const dataDir = prepared.dataDir;
  // A 0600 secrets file rather than the OS keychain: the bench runs without a D-Bus session.
  const secretsFile = join(tempDir('sanad-bench-secrets-'), 'secrets.json');
  writeFileSync(secretsFile, '', { mode: 0o600 });
  const store = new SecretsFileStore(secretsFile, dataDirScope(dataDir));
  const db = openStore(storePath(dataDir));
  await ensureMasterSecrets(db, store, systemClock);
  fillTasks(db, tasks);
  db.pragma('wal_checkpoint(TRUNCATE)');

  const registry = new ModelRegistry(db, systemClock);
  const tinyPath = db.prepare<[], { path: string }>("SELECT path FROM models WHERE id = 'tiny'").get()?.path ?? '';
  const bigPath = join(tempDir('sanad-bench-model-'), 'big.gguf');
  writeFileSync(bigPath, Buffer.concat([readFileSync(tinyPath), randomBytes(modelMiB * 1024 * 1024)]));
  await registry.add(bigPath, 'big');

  const deps = await backupDepsFor({ db, dataDir, store, clock: systemClock, logger: silentLogger });
  const modelPaths = [tinyPath, bigPath];
  return {
    deps,
    db,
    store,
    dataDir,
    tasks,
    storeBytes: statSync(storePath(dataDir)).size,
    modelPaths,
    modelBytes: modelPaths.reduce((n, p) => n + statSync(p).size, 0),
  };
}
