// A device on the network, run inside the test namespace (test/harness/test-network.ts): one JSON
// request in argv, one JSON answer on stdout. It does what docs/api.md tells a device to do: fetch
// the certificate, compare its fingerprint with the one on the pairing screen, then trust exactly
// that certificate (an undici dispatcher for the official openai SDK) for everything after.
import { createHash, X509Certificate } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { connect, type Socket } from 'node:net';
import { Bonjour } from 'bonjour-service';
import OpenAI from 'openai';
import { Agent, fetch as undiciFetch } from 'undici';

type Json = Record<string, unknown>;

function str(req: Json, key: string): string {
  const v = req[key];
  if (typeof v !== 'string') throw new Error(`the device request needs "${key}"`);
  return v;
}

function errorCode(err: unknown): string {
  if (err instanceof Error) {
    const cause = 'cause' in err && err.cause instanceof Error ? err.cause : err;
    return 'code' in cause && typeof cause.code === 'string' ? cause.code : cause.message;
  }
  return String(err);
}

/** Trust on first sight, then check: the certificate as the listener sends it, unverified. */
function fetchCertificateUnverified(url: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = httpsRequest(`${url}/v1/tls/certificate`, { rejectUnauthorized: false }, (res) => {
      let body = '';
      res.on('data', (d: Buffer) => (body += d.toString()));
      res.on('end', () => resolve(body));
    });
    req.on('error', reject);
    req.end();
  });
}

function fingerprint(pem: string): string {
  return createHash('sha256').update(new X509Certificate(pem).raw).digest('hex');
}

function pinned(pem: string): Agent {
  return new Agent({ connect: { ca: pem } });
}

async function pair(req: Json): Promise<Json> {
  const url = str(req, 'url');
  const pem = await fetchCertificateUnverified(url);
  const seen = fingerprint(pem);
  if (seen !== str(req, 'fingerprint')) return { refused: 'fingerprint_mismatch', seen };
  const res = await undiciFetch(`${url}/v1/pair`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ code: str(req, 'code'), client_name: 'phone' }),
    dispatcher: pinned(pem),
  });
  return { status: res.status, body: await res.json(), pem, seen };
}

async function sdk(req: Json): Promise<Json> {
  const client = new OpenAI({
    baseURL: `${str(req, 'url')}/v1`,
    apiKey: str(req, 'token'),
    maxRetries: 0,
    timeout: 60_000,
    fetchOptions: { dispatcher: pinned(str(req, 'pem')) },
    // The test checks LMSP's gap-free log over TLS: the whole of it.
    defaultHeaders: { 'LMSP-Events': 'all' },
  });
  const models = await client.models.list();
  const created = await client.responses.create({ model: 'tiny', input: 'Hello from the phone.', max_output_tokens: 12 });
  let deltas = '';
  const seqs: number[] = [];
  const stream = await client.responses.create({ model: 'tiny', input: 'Stream to the phone.', max_output_tokens: 16, stream: true });
  for await (const event of stream) {
    seqs.push(event.sequence_number);
    if (event.type === 'response.output_text.delta') deltas += event.delta;
  }
  const background = await client.responses.create({ model: 'tiny', input: 'A long one.', max_output_tokens: 8000, background: true });
  const cancelled = await client.responses.cancel(background.id);
  // A running generation answers the cancel at once (in_progress, then cancelling): poll for its end.
  let finished = await client.responses.retrieve(background.id);
  for (let i = 0; i < 300 && !['completed', 'incomplete', 'failed', 'cancelled'].includes(finished.status ?? ''); i += 1) {
    await new Promise((r) => setTimeout(r, 100));
    finished = await client.responses.retrieve(background.id);
  }
  return {
    models: models.data.map((m) => m.id),
    created: { id: created.id, status: created.status, text: created.output_text },
    streamed: { text: deltas, seqs },
    background: { id: background.id, status: background.status },
    cancelled: { answered: cancelled.status, status: finished.status },
  };
}

/** One raw request (node:https, so Host and Origin can be anything), verified against `pem`. */
function raw(req: Json): Promise<Json> {
  const url = new URL(str(req, 'path'), str(req, 'url'));
  const headers: Record<string, string> = {};
  for (const k of ['host', 'origin', 'authorization', 'content-type', 'x-sanad-session']) if (typeof req[k] === 'string') headers[k] = str(req, k);
  const body = typeof req.body === 'string' ? req.body : undefined;
  const plain = url.protocol === 'http:';
  const options = {
    method: typeof req.method === 'string' ? req.method : 'GET',
    headers,
    ...(plain ? {} : { ca: str(req, 'pem'), servername: url.hostname.match(/^\d/) ? '' : url.hostname }),
  };
  return new Promise((resolve) => {
    const send = plain ? httpRequest : httpsRequest;
    const r = send(url, options, (res) => {
      let text = '';
      res.on('data', (d: Buffer) => (text += d.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text, retry_after: res.headers['retry-after'] ?? null }));
    });
    r.setTimeout(10_000, () => r.destroy(new Error('timeout')));
    r.on('error', (err) => resolve({ error: errorCode(err) }));
    r.end(body);
  });
}

/** Wrong codes one after another, as a guesser would send them; each answer's status. */
async function guess(req: Json): Promise<Json> {
  const count = typeof req.count === 'number' ? req.count : 10;
  const answers: Json[] = [];
  for (let i = 0; i < count; i += 1) {
    const body = JSON.stringify({ code: `ZZZZ-${String(2222 + i).slice(-4)}`, client_name: 'guesser' });
    answers.push(await raw({ ...req, path: '/v1/pair', method: 'POST', 'content-type': 'application/json', body }));
  }
  if (typeof req.then === 'string') {
    const body = JSON.stringify({ code: req.then, client_name: 'guesser' });
    answers.push(await raw({ ...req, path: '/v1/pair', method: 'POST', 'content-type': 'application/json', body }));
  }
  return { answers };
}

/** What `_lmsp._tcp` browsing finds within `ms`. */
function browse(req: Json): Promise<Json> {
  const ms = typeof req.ms === 'number' ? req.ms : 3000;
  return new Promise((resolve) => {
    const bonjour = new Bonjour();
    const found: Json[] = [];
    bonjour.find({ type: 'lmsp', protocol: 'tcp' }, (service) => {
      found.push({ name: service.name, port: service.port, addresses: service.addresses ?? [], txt: service.txt ?? null });
    });
    setTimeout(() => bonjour.destroy(() => resolve({ found })), ms);
  });
}

/**
 * Another host holding the doors: `idle` TCP connections that never start TLS and `slow` ones that
 * send a TLS record header and then one byte a second, all from `from`, held for `ms`. Says how many
 * the listener closed before then, and when the last of them went.
 */
async function flood(req: Json): Promise<Json> {
  const target = new URL(str(req, 'url'));
  const from = str(req, 'from');
  const count = (key: string): number => (typeof req[key] === 'number' ? req[key] : 0);
  const ms = count('ms');
  const started = performance.now();
  let closedByServer = 0;
  let lastClosedMs = 0;
  let connected = 0;
  let ending = false;
  const sockets: Socket[] = [];
  const open = (slow: boolean): void => {
    const socket = connect({ host: target.hostname, port: Number(target.port), localAddress: from });
    sockets.push(socket);
    let drip: NodeJS.Timeout | null = null;
    socket.on('connect', () => {
      connected += 1;
      if (!slow) return;
      socket.write(Buffer.from([0x16, 0x03, 0x01, 0x02, 0x00]));
      drip = setInterval(() => socket.write(Buffer.from([0x01])), 1000);
    });
    socket.on('error', () => undefined);
    socket.on('close', () => {
      if (drip) clearInterval(drip);
      if (ending) return;
      closedByServer += 1;
      lastClosedMs = Math.round(performance.now() - started);
    });
  };
  for (let i = 0; i < count('idle'); i++) open(false);
  for (let i = 0; i < count('slow'); i++) open(true);
  await new Promise((r) => setTimeout(r, ms));
  ending = true;
  const heldAtEnd = sockets.filter((s) => !s.destroyed).length;
  for (const s of sockets) s.destroy();
  return { opened: sockets.length, connected, closedByServer, lastClosedMs, heldAtEnd };
}

async function main(): Promise<void> {
  const parsed: unknown = JSON.parse(process.argv[2] ?? '{}');
  const req: Json = typeof parsed === 'object' && parsed !== null ? Object.fromEntries(Object.entries(parsed)) : {};
  const actions: Record<string, (r: Json) => Promise<Json>> = { pair, sdk, raw, guess, browse, flood };
  const action = actions[str(req, 'action')];
  if (!action) throw new Error(`unknown device action ${str(req, 'action')}`);
  let answer: Json;
  try {
    answer = await action(req);
  } catch (err) {
    answer = { error: errorCode(err), message: err instanceof Error ? err.message : String(err) };
  }
  process.stdout.write(JSON.stringify(answer) + '\n');
  process.exit(0);
}

void main();
