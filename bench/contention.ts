// Inference while backing up: tokens/s of a streamed generation while the service backs up a large
// model (restic hashing, compressing and encrypting it at low priority), against tokens/s with
// nothing else running, same service, same model, same run. Only generations that ran entirely
// inside the backup count.
import { performance } from 'node:perf_hooks';
import type { ServiceProcess } from '../test/harness/service-process.js';
import { readSse } from '../test/harness/sse.js';
import { backupRunning, serviceWithBigModel } from './big-model-service.js';
import { median } from './stats.js';

async function streamRate(service: ServiceProcess, token: string, tokens: number): Promise<number> {
  const t0 = performance.now();
  const { frames } = await readSse(
    `${service.url}/v1/responses`,
    {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'tiny', input: 'Hello', max_output_tokens: tokens, stream: true }),
    },
    (f) => f.event === 'response.completed' || f.event === 'response.incomplete' || f.event === 'response.failed',
    120_000,
  );
  const seconds = (performance.now() - t0) / 1000;
  const produced = Number(JSON.stringify(frames.at(-1)?.data).match(/"output_tokens":(\d+)/)?.[1] ?? 0);
  return produced / seconds;
}

export async function contentionBench(modelMiB: number, tokens: number): Promise<{ idle: number; duringBackup: number; during: number; backupMs: number }> {
  const { prepared, service } = await serviceWithBigModel(modelMiB);
  try {
    await streamRate(service, prepared.adminToken, 200); // loads the model
    const idle: number[] = [];
    for (let i = 0; i < 3; i++) idle.push(await streamRate(service, prepared.adminToken, tokens));
    const t0 = performance.now();
    const started = await service.api.post('/admin/backups');
    if (started.status >= 300) throw new Error(`starting the backup: ${started.text}`);
    const during: number[] = [];
    while (await backupRunning(service)) {
      const rate = await streamRate(service, prepared.adminToken, tokens);
      if (await backupRunning(service)) during.push(rate);
    }
    const backupMs = performance.now() - t0;
    if (during.length === 0) throw new Error('the backup ended before one generation could run inside it; use a bigger model');
    return { idle: median(idle), duringBackup: during.length, during: median(during), backupMs };
  } finally {
    await service.stop();
    prepared.cleanup();
  }
}
