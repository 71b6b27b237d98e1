// The doors of this machine's listener, attacked as the review did: hundreds of sockets sending a
// partial header every second (slowloris) are closed within seconds and /health/live answers again;
// LMSP clients that hold every slot but the reserved ones leave the GUI, /admin and health their
// room, and a further LMSP request is a 503 that says why.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import { REQUEST_WAIT_MS, RESERVED_FOR_ADMIN } from '../../src/service/connection-guard.js';
import { str } from '../harness/api.js';
import { startTestAppliance, type TestAppliance } from '../harness/appliance.js';

const MAX = 48;
let t: TestAppliance | null = null;
const sockets: Socket[] = [];
after(async () => {
  for (const s of sockets) s.destroy();
  await t?.close();
});

function open(port: number, first: string, drip: string | null): Socket {
  const socket = connect({ host: '127.0.0.1', port });
  socket.on('error', () => undefined);
  socket.on('connect', () => {
    socket.write(first);
    if (drip === null) return;
    const timer = setInterval(() => socket.write(drip), 1000);
    socket.once('close', () => clearInterval(timer));
  });
  sockets.push(socket);
  return socket;
}

async function live(url: string): Promise<number> {
  return fetch(`${url}/health/live`, { signal: AbortSignal.timeout(2000) }).then(
    (r) => r.status,
    () => 0,
  );
}

test('slowloris sockets that fill every slot are closed within seconds, and /health/live answers again', async () => {
  t = await startTestAppliance({ settings: { max_connections: MAX } });
  const { port, url } = t.appliance;
  const slow = Array.from({ length: MAX * 3 }, () => open(port, 'GET /health/live HTTP/1.1\r\nHost: 127.0.0.1\r\n', 'X-Slow: 1\r\n'));
  await new Promise((r) => setTimeout(r, 500));
  const started = performance.now();
  let status = await live(url);
  while (status !== 200 && performance.now() - started < 4 * REQUEST_WAIT_MS) status = await live(url);
  console.log(`/health/live answered ${Math.round(performance.now() - started)} ms after ${slow.length} slow sockets (limit ${MAX})`);
  assert.equal(status, 200);
  await new Promise((r) => setTimeout(r, REQUEST_WAIT_MS + 1000));
  assert.equal(slow.filter((s) => !s.destroyed).length, 0, 'every slow socket was closed by the service');
});

test('LMSP clients holding all but the reserved slots: another LMSP request is a 503, the GUI, /admin and health still answer', async () => {
  if (!t) throw new Error('the first test starts the appliance');
  const { port, url } = t.appliance;
  const room = MAX - RESERVED_FOR_ADMIN;
  // Whole headers, then a body that never ends: each request is working, its slot held.
  const body = 'POST /v1/responses HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{';
  const holders = Array.from({ length: room }, () => open(port, body, ' '));
  await new Promise((r) => setTimeout(r, 1000));
  assert.equal(holders.filter((s) => !s.destroyed).length, room, 'the LMSP requests hold their slots');

  const refused = await t.api.get('/v1/models');
  assert.equal(refused.status, 503, refused.text);
  assert.equal(str(refused.body, 'error', 'code'), 'connection_limit');
  assert.equal((await t.api.get('/admin/status')).status, 200, '/admin has its room');
  assert.equal(await live(url), 200, 'health has its room');
  const gui = await fetch(`${url}/`);
  assert.equal(gui.status, 200, 'the GUI has its room');
  for (const s of holders) s.destroy();
  await new Promise((r) => setTimeout(r, 300));
  assert.equal((await t.api.get('/v1/models')).status, 200, 'with the slots free again, LMSP answers');
});
