// Devices on the network: what TLS and the network listener cost a paired device, against the
// main listener (plain HTTP on loopback) of the same `sanad serve --lan`, in the same run, with the
// same client library (undici) and the same token. Both are reached over loopback, so the network
// itself is not in the numbers; what is: the handshake, the encryption and the listener's path.
import { performance } from 'node:perf_hooks';
import { Agent, fetch as undiciFetch } from 'undici';
import { field, str } from '../test/harness/api.js';
import { prepareDataDir } from '../test/harness/data-dir.js';
import { startServiceProcess } from '../test/harness/service-process.js';
import { median } from './stats.js';

export interface LanBench {
  /** GET /v1/models on one kept-alive connection, 4 at a time. */
  reads: { main: number; lan: number };
  /** A fresh connection for each GET (the TLS handshake each time), median ms. */
  freshMs: { main: number; lan: number };
  /** Streamed responses (stream: true), tokens/s, median of the rounds (alternating). */
  streaming: { main: number; lan: number; pairedRatio: number };
  /** Pairing over TLS: fetch the certificate, compare, redeem the code (ms). */
  pairMs: number;
  rounds: number;
}

async function rate(count: number, concurrency: number, call: () => Promise<void>): Promise<number> {
  let next = 0;
  const start = performance.now();
  const worker = async (): Promise<void> => {
    while (next < count) {
      next += 1;
      await call();
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return count / ((performance.now() - start) / 1000);
}

async function streamed(base: string, token: string, dispatcher: Agent, tokens: number): Promise<number> {
  const t0 = performance.now();
  const res = await undiciFetch(`${base}/v1/responses`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'tiny', input: 'Hello', max_output_tokens: tokens, stream: true }),
    dispatcher,
  });
  const text = await res.text();
  const seconds = (performance.now() - t0) / 1000;
  const usage = /"output_tokens":(\d+)/.exec(text.slice(Math.max(text.lastIndexOf('response.completed'), text.lastIndexOf('response.incomplete'))));
  return Number(usage?.[1] ?? 0) / seconds;
}

export async function lanBench(rounds: number, tokens: number): Promise<LanBench> {
  const prepared = await prepareDataDir({ requests_per_minute_per_client: 1_000_000 });
  const sp = await startServiceProcess(prepared.dataDir, prepared.adminToken, {}, ['--lan', '--lan-port', '0']);
  try {
    const lanStatus = await sp.api.get('/admin/lan');
    const port = Number(field(lanStatus.body, 'port'));
    const pem = str(lanStatus.body, 'certificate_pem');
    const lanBase = `https://127.0.0.1:${port}`;
    const pinned = new Agent({ connect: { ca: pem } });
    const plain = new Agent();
    // A device paired over TLS; the network listener allows it 300 requests a minute, which the
    // counts below stay under.
    const codeAnswer = await sp.api.post('/admin/pairing-codes', { scopes: ['models:read', 'responses:write'] });
    const t0 = performance.now();
    const cert = await undiciFetch(`${lanBase}/v1/tls/certificate`, { dispatcher: pinned });
    await cert.text();
    const paired = await undiciFetch(`${lanBase}/v1/pair`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ code: str(codeAnswer.body, 'code'), client_name: 'bench device' }),
      dispatcher: new Agent({ connect: { ca: pem } }),
    });
    const pairMs = performance.now() - t0;
    const token = str(await paired.json(), 'token');
    const get = (base: string, dispatcher: Agent) => async (): Promise<void> => {
      const res = await undiciFetch(`${base}/v1/models`, { headers: { authorization: `Bearer ${token}` }, dispatcher });
      await res.text();
      if (res.status !== 200) throw new Error(`GET /v1/models answered ${res.status}`);
    };
    // Under the network listener's 300 a minute for this one device: 120 reads each side, warm first.
    await get(sp.url, plain)();
    await get(lanBase, pinned)();
    const reads = { main: await rate(120, 4, get(sp.url, plain)), lan: await rate(120, 4, get(lanBase, pinned)) };
    const fresh = async (base: string, make: () => Agent): Promise<number> => {
      const times: number[] = [];
      for (let i = 0; i < 15; i += 1) {
        const agent = make();
        const s = performance.now();
        await get(base, agent)();
        times.push(performance.now() - s);
        await agent.close();
      }
      return median(times);
    };
    const freshMs = { main: await fresh(sp.url, () => new Agent()), lan: await fresh(lanBase, () => new Agent({ connect: { ca: pem } })) };
    const main: number[] = [];
    const lan: number[] = [];
    const ratios: number[] = [];
    await streamed(sp.url, token, plain, tokens);
    for (let i = 0; i < rounds; i += 1) {
      if (i % 2 === 0) {
        main.push(await streamed(sp.url, token, plain, tokens));
        lan.push(await streamed(lanBase, token, pinned, tokens));
      } else {
        lan.push(await streamed(lanBase, token, pinned, tokens));
        main.push(await streamed(sp.url, token, plain, tokens));
      }
      ratios.push((lan.at(-1) ?? NaN) / (main.at(-1) ?? NaN));
    }
    return { reads, freshMs, streaming: { main: median(main), lan: median(lan), pairedRatio: median(ratios) }, pairMs, rounds };
  } finally {
    await sp.stop();
  }
}
