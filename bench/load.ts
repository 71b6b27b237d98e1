// The accept path measured by an independent load generator: autocannon (-c 50, 10 s) drives
// Sanad's POST /v1/responses {background: true} (202 after the commit) and, in the same run, a bare
// Fastify route in its own process answering 202 with a body of the same shape: the ceiling. The
// tasks queue behind a long generation, so only the accept path is measured.
import autocannon from 'autocannon';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { prepareDataDir } from '../test/harness/data-dir.js';
import { startServiceProcess } from '../test/harness/service-process.js';

export interface LoadResult {
  perSecond: number;
  p50Ms: number;
  p99Ms: number;
  non2xx: number;
  errors: number;
}

async function cannon(url: string, token: string | null, seconds: number, connections: number): Promise<LoadResult> {
  const body = JSON.stringify({ model: 'tiny', input: 'Hello', max_output_tokens: 1, background: true });
  const headers: Record<string, string> = { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) };
  const r = await autocannon({ url: `${url}/v1/responses`, method: 'POST', body, headers, connections, duration: seconds });
  return { perSecond: r.requests.average, p50Ms: r.latency.p50, p99Ms: r.latency.p99, non2xx: r.non2xx, errors: r.errors };
}

async function trivialServer(): Promise<{ url: string; stop: () => void }> {
  const child = spawn(process.execPath, [new URL('./trivial-server.js', import.meta.url).pathname], { stdio: ['ignore', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout });
  const line: unknown = (await once(lines, 'line'))[0];
  return { url: String(line).trim(), stop: () => child.kill('SIGKILL') };
}

export async function loadBench(seconds: number, connections: number): Promise<{ sanad: LoadResult; ceiling: LoadResult }> {
  const ceilingServer = await trivialServer();
  let ceiling: LoadResult;
  try {
    await cannon(ceilingServer.url, null, 1, connections); // warm-up
    ceiling = await cannon(ceilingServer.url, null, seconds, connections);
  } finally {
    ceilingServer.stop();
  }
  const prepared = await prepareDataDir({ requests_per_minute_per_client: 1_000_000, max_queued_tasks_per_client: 1_000_000 });
  const service = await startServiceProcess(prepared.dataDir, prepared.adminToken);
  try {
    // A long generation holds the engine: the accepted tasks only queue.
    await service.api.post('/v1/responses', { model: 'tiny', input: 'Hello', max_output_tokens: 8192, background: true });
    await cannon(service.url, prepared.adminToken, 1, connections); // warm-up
    const sanad = await cannon(service.url, prepared.adminToken, seconds, connections);
    return { sanad, ceiling };
  } finally {
    await service.stop();
    prepared.cleanup();
  }
}
