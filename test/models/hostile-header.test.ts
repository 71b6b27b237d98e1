// A model URL whose server is hostile, against a real `sanad serve`: the plan reads the GGUF header
// to estimate memory, and a server that answers a range with an endless body, or a header that
// claims a string of a terabyte, once grew the service by gigabytes. Now the read is bounded in
// bytes and time and parsed in a worker with a memory limit: the plan answers with one sentence,
// the service's RSS stays bounded (sampled throughout), and it serves others meanwhile.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, test } from 'node:test';
import { prepareDataDir } from '../harness/data-dir.js';
import { startServiceProcess, type ServiceProcess } from '../harness/service-process.js';

const CLAIMED_SIZE = 100 * 1024 * 1024;
const servers: Server[] = [];
const services: ServiceProcess[] = [];
after(async () => {
  for (const s of servers) s.close();
  for (const s of services) await s.stop();
});

/** A GGUF header whose first metadata key claims to be 2^40 bytes long, then a few bytes. */
function lyingHeader(): Buffer {
  const b = Buffer.alloc(4 + 4 + 8 + 8 + 8 + 16);
  b.write('GGUF', 0, 'latin1');
  b.writeUInt32LE(3, 4);
  b.writeBigUInt64LE(1n, 8); // tensors
  b.writeBigUInt64LE(1n, 16); // metadata entries
  b.writeBigUInt64LE(1n << 40n, 24); // the key's length
  return b;
}

async function hostileServer(): Promise<string> {
  const endless = Buffer.alloc(64 * 1024, 0x41);
  endless.write('GGUF', 0, 'latin1');
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (req.method === 'HEAD') return void res.writeHead(200, { 'content-length': CLAIMED_SIZE }).end();
    if (path === '/lying.gguf') return void res.writeHead(200, { 'content-length': lyingHeader().length }).end(lyingHeader());
    // Any range is answered with a body that never ends (a 206 without a length).
    res.writeHead(206, { 'content-type': 'application/octet-stream' });
    const pump = (): void => {
      while (!res.destroyed && res.write(endless));
      if (!res.destroyed) res.once('drain', pump);
    };
    res.on('close', () => res.destroy());
    pump();
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const address: AddressInfo | string | null = server.address();
  assert.ok(address !== null && typeof address === 'object');
  return `http://127.0.0.1:${address.port}`;
}

function rssMiB(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith('VmRSS:'));
  return Number(/(\d+)/.exec(line ?? '')?.[1] ?? 0) / 1024;
}

test('an endless range and a lying header end in one sentence, with the service bounded and answering', async () => {
  const base = await hostileServer();
  const { dataDir, adminToken } = await prepareDataDir();
  const service = await startServiceProcess(dataDir, adminToken);
  services.push(service);
  const pid = service.child.pid;
  assert.ok(pid !== undefined);
  await service.api.get('/health/ready');
  const before = rssMiB(pid);
  let peak = before;
  let slowest = 0;
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      peak = Math.max(peak, rssMiB(pid));
      const t0 = performance.now();
      assert.equal((await service.api.get('/health/live')).status, 200);
      slowest = Math.max(slowest, performance.now() - t0);
      await new Promise((r) => setTimeout(r, 100));
    }
  })();
  try {
    for (const name of ['endless.gguf', 'lying.gguf']) {
      const t0 = performance.now();
      const plan = await service.api.post('/admin/models/pulls/plan', { uri: `${base}/${name}` });
      const seconds = (performance.now() - t0) / 1000;
      assert.equal(plan.status, 200, plan.text);
      assert.match(plan.text, /Its memory needs could not be estimated from its header/, name);
      assert.ok(seconds < 45, `${name}: the plan answered in ${seconds.toFixed(1)} s, within the time limit`);
    }
  } finally {
    sampling = false;
    await sampler;
  }
  // The header is read into at most 32 MiB, parsed in a worker whose heap is limited to 256 MiB.
  assert.ok(peak - before < 400, `the service grew by ${(peak - before).toFixed(0)} MiB (from ${before.toFixed(0)} MiB)`);
  assert.ok(slowest < 2_000, `the service answered others meanwhile (slowest ${slowest.toFixed(0)} ms)`);
});
