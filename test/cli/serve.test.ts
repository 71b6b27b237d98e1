// `sanad serve` as a real process: service.json while it runs, a clean stop on SIGTERM, and a
// second instance on the same data dir refused.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { num, str } from '../harness/api.js';
import { prepareDataDir } from '../harness/data-dir.js';
import { startServiceProcess } from '../harness/service-process.js';
import { assertOneLineError, jsonOut, runCli } from './run-cli.js';

function serviceFile(dataDir: string): unknown {
  return JSON.parse(readFileSync(join(dataDir, 'service.json'), 'utf8'));
}

test('serve --port 0 --json writes service.json, serves, and stops cleanly on SIGTERM', async (t) => {
  const prepared = await prepareDataDir();
  const sp = await startServiceProcess(prepared.dataDir, prepared.adminToken);
  t.after(() => sp.kill());
  const info = serviceFile(prepared.dataDir);
  assert.equal(num(info, 'pid'), sp.child.pid);
  assert.equal(num(info, 'port'), sp.port);
  assert.equal(str(info, 'url'), sp.url);
  assert.ok(sp.port > 0);
  assert.equal(sp.url, `http://127.0.0.1:${sp.port}`);
  assert.equal((await sp.api.get('/health/live')).status, 200);
  assert.equal((await sp.api.get('/v1/models')).status, 200);

  const code = await sp.stop();
  assert.equal(code, 0, sp.stderr());
  assert.equal(sp.child.signalCode, null, 'it exited by itself, not by the signal');
  assert.ok(!existsSync(join(prepared.dataDir, 'service.json')), 'service.json is removed');
  await assert.rejects(fetch(`${sp.url}/health/live`), 'the port is closed');
  assert.ok(!sp.stderr().includes('    at '), sp.stderr());

  // The lock went with it: the same data dir serves again.
  const again = await startServiceProcess(prepared.dataDir, prepared.adminToken);
  t.after(() => again.kill());
  assert.equal((await again.api.get('/health/live')).status, 200);
  assert.equal(await again.stop(), 0);
});

test('a second serve on the same data dir exits 1 saying it is already running, and the first is untouched', async (t) => {
  const prepared = await prepareDataDir();
  const first = await startServiceProcess(prepared.dataDir, prepared.adminToken);
  t.after(() => first.kill());
  const before = readFileSync(join(prepared.dataDir, 'service.json'), 'utf8');

  const second = await runCli(['serve', '--port', '0', '--data-dir', prepared.dataDir]);
  assertOneLineError(second, 1, /already running/);
  assert.match(second.stderr, new RegExp(`pid ${String(first.child.pid)}`), 'it names the running instance');
  assert.equal(readFileSync(join(prepared.dataDir, 'service.json'), 'utf8'), before, 'service.json still describes the first');
  assert.equal((await first.api.get('/health/live')).status, 200, 'the first still serves');

  // Other commands work beside the running service.
  const list = await runCli(['models', 'list', '--json', '--data-dir', prepared.dataDir]);
  assert.equal(list.code, 0, list.stderr);
  assert.equal(str(jsonOut(list), 'data', 0, 'id'), 'tiny');

  assert.equal(await first.stop(), 0, first.stderr());
  assert.ok(!existsSync(join(prepared.dataDir, 'service.json')));
});

test('a bad port is a usage error', async () => {
  const prepared = await prepareDataDir();
  assertOneLineError(await runCli(['serve', '--port', 'eighty', '--data-dir', prepared.dataDir]), 2, /not a port/);
  assert.ok(!existsSync(join(prepared.dataDir, 'service.json')));
});
