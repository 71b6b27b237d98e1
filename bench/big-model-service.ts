// A `sanad serve` process with a large model registered beside the tiny one (the tiny model's
// weights followed by random bytes): what a backup reads for seconds while other work runs.
import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Settings } from '../src/store/settings.js';
import { tinyModelPath } from '../test/fixtures/tiny-model.js';
import { prepareDataDir, tempDir, type PreparedDataDir } from '../test/harness/data-dir.js';
import { startServiceProcess, type ServiceProcess } from '../test/harness/service-process.js';

export async function serviceWithBigModel(modelMiB: number, settings: Partial<Settings> = {}): Promise<{ prepared: PreparedDataDir; service: ServiceProcess }> {
  const prepared = await prepareDataDir(settings);
  const big = join(tempDir('sanad-bench-big-'), 'big.gguf');
  writeFileSync(big, Buffer.concat([readFileSync(await tinyModelPath(1)), randomBytes(modelMiB * 1024 * 1024)]));
  const service = await startServiceProcess(prepared.dataDir, prepared.adminToken);
  const added = await service.api.post('/admin/models', { path: big, id: 'big' });
  if (added.status !== 201) {
    await service.stop();
    prepared.cleanup();
    throw new Error(`adding the big model: ${added.text}`);
  }
  return { prepared, service };
}

/** Whether the service's backup job is running now. */
export async function backupRunning(service: ServiceProcess): Promise<boolean> {
  const r = await service.api.get('/admin/backups/status');
  return typeof r.body === 'object' && r.body !== null && 'running' in r.body && r.body.running === true;
}
