// Live streams while the service backs up (issue 32): 20 streamed generations at once (16 run, the
// rest wait their turn) as a client reads them, first with nothing else running, then while the
// same service backs up a large model. For each stream, the gaps between consecutive text frames
// after its first one. Sanad sets one pace itself: text is group-committed every 100 ms
// (tasks/ledger.ts), so a gap up to that is the design; what the event loop adds shows beyond it.
import { performance } from 'node:perf_hooks';
import type { ServiceProcess } from '../test/harness/service-process.js';
import { readSse } from '../test/harness/sse.js';
import { backupRunning, serviceWithBigModel } from './big-model-service.js';
import { percentile } from './stats.js';

/** The ledger's group-commit window for text. */
export const TEXT_WINDOW_MS = 100;

export interface Gaps {
  streams: number;
  gaps: number;
  maxMs: number;
  p99Ms: number;
}

async function oneStream(service: ServiceProcess, token: string, tokens: number): Promise<number[]> {
  const at: number[] = [];
  await readSse(
    `${service.url}/v1/responses`,
    {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'tiny', input: 'Hello', max_output_tokens: tokens, stream: true }),
    },
    (f) => {
      if (f.event === 'response.output_text.delta') at.push(performance.now());
      return f.event === 'response.completed' || f.event === 'response.incomplete' || f.event === 'response.failed';
    },
    300_000,
  );
  // Frames of one group commit arrive together; a gap is between two arrivals.
  const arrivals = at.filter((t, i) => i === 0 || t - (at[i - 1] ?? t) > 1);
  return arrivals.slice(1).map((t, i) => t - (arrivals[i] ?? t));
}

async function streamsAtOnce(service: ServiceProcess, token: string, count: number, tokens: number): Promise<Gaps> {
  const all = (await Promise.all(Array.from({ length: count }, () => oneStream(service, token, tokens)))).flat();
  return { streams: count, gaps: all.length, maxMs: Math.max(0, ...all), p99Ms: all.length > 0 ? percentile(all, 99) : 0 };
}

export async function streamsBench(count: number, tokens: number, modelMiB: number): Promise<{ quiet: Gaps; duringBackup: Gaps; backupStillRan: boolean }> {
  const { prepared, service } = await serviceWithBigModel(modelMiB, {
    max_concurrent_generations: 16,
    max_streams_per_client: 64,
    requests_per_minute_per_client: 1_000_000,
  });
  try {
    await oneStream(service, prepared.adminToken, 20); // loads the model
    const quiet = await streamsAtOnce(service, prepared.adminToken, count, tokens);
    const started = await service.api.post('/admin/backups');
    if (started.status >= 300) throw new Error(`starting the backup: ${started.text}`);
    const duringBackup = await streamsAtOnce(service, prepared.adminToken, count, tokens);
    return { quiet, duringBackup, backupStillRan: await backupRunning(service) };
  } finally {
    await service.stop();
    prepared.cleanup();
  }
}
