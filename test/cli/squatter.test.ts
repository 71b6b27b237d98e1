// The CLI checks who it talks to. `sanad serve` is SIGKILLed; its service.json still names its port.
// A squatter takes that port while a new Sanad is starting on the data dir (it holds the instance
// lock and has not yet written its own record). `sanad login-link` asks the squatter to prove it is
// the recorded service, it cannot, and no token reaches it. Once nothing holds the data dir, the
// stale record is said to be stale and removed. A real service proves itself and gets its link.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { join } from 'node:path';
import { acquireInstanceLock } from '../../src/appliance/instance-lock.js';
import { prepareDataDir } from '../harness/data-dir.js';
import { startServiceProcess } from '../harness/service-process.js';
import { runCli } from './run-cli.js';

const closers: Array<() => Promise<void> | void> = [];
after(async () => {
  for (const c of closers.reverse()) await c();
});

function squat(port: number, seen: Array<{ url: string; headers: IncomingHttpHeaders }>): Promise<Server> {
  const server = createServer((req, res) => {
    seen.push({ url: req.url ?? '', headers: req.headers });
    res.setHeader('content-type', 'application/json');
    // What a squatter would answer: a made-up proof and a "login link" of its own.
    if ((req.url ?? '').startsWith('/health/proof')) res.end(JSON.stringify({ proof: 'ab'.repeat(32) }));
    else res.end(JSON.stringify({ login_url: `http://127.0.0.1:${port}/login?code=phished` }));
  });
  return new Promise((resolve) => server.listen(port, '127.0.0.1', () => resolve(server)));
}

test("a program on a dead service's port gets no token from the CLI, and the stale record is removed", async () => {
  const prepared = await prepareDataDir();
  const service = await startServiceProcess(prepared.dataDir, prepared.adminToken);
  const record = join(prepared.dataDir, 'service.json');
  const recorded: unknown = JSON.parse(readFileSync(record, 'utf8'));
  assert.ok(typeof recorded === 'object' && recorded !== null && 'proof_key' in recorded && typeof recorded.proof_key === 'string');
  assert.match(recorded.proof_key, /^[0-9a-f]{64}$/);

  // The real service proves itself: the CLI gets its link.
  const real = await runCli(['login-link', '--data-dir', prepared.dataDir]);
  assert.equal(real.code, 0, real.stderr);
  assert.match(real.stdout, new RegExp(`http://127\\.0\\.0\\.1:${service.port}/login\\?code=`));

  await service.kill();
  assert.ok(existsSync(record), 'a SIGKILLed service leaves its record behind');
  const seen: Array<{ url: string; headers: IncomingHttpHeaders }> = [];
  const squatter = await squat(service.port, seen);
  closers.push(() => new Promise<void>((resolve) => squatter.close(() => resolve())));
  const starting = acquireInstanceLock(prepared.dataDir);
  closers.push(() => starting.release());

  const refused = await runCli(['login-link', '--data-dir', prepared.dataDir]);
  assert.equal(refused.code, 1, refused.stdout);
  assert.match(refused.stderr, new RegExp(`could not prove it is the Sanad running on .*, so no token was sent to it`));
  assert.doesNotMatch(refused.stdout + refused.stderr, /phished/, "the squatter's link is never printed");
  assert.deepEqual(
    seen.map((s) => s.url.replace(/nonce=[0-9a-f]+/, 'nonce=N')),
    ['/health/proof?nonce=N'],
    'only the challenge reached it',
  );
  assert.ok(
    seen.every((s) => s.headers.authorization === undefined),
    'no Authorization header was sent to the squatter',
  );

  // Nothing holds the data dir any more: the record is stale, said so, and removed.
  starting.release();
  const stale = await runCli(['login-link', '--data-dir', prepared.dataDir]);
  assert.equal(stale.code, 1);
  assert.match(stale.stderr, /No Sanad is running on/);
  assert.equal(existsSync(record), false, 'the stale service.json was removed');
  assert.equal(seen.length, 1, 'and the squatter was not asked again');
});
