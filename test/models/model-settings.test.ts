// Per-model settings: checked against the model's own metadata, stored, shown to admin in
// /v1/models (not to other clients), and used by the engine: a prompt longer than the old fixed
// 8192-token context works once the model's context is set longer.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { systemClock, unixSeconds } from '../../src/clock.js';
import { ModelList } from '../../src/contract/tasks.js';
import { ModelRegistry } from '../../src/engine/registry.js';
import { createClient } from '../../src/store/clients.js';
import { openStore } from '../../src/store/open.js';
import { Api } from '../harness/api.js';
import { startTestAppliance, type TestAppliance } from '../harness/appliance.js';
import { prepareDataDir } from '../harness/data-dir.js';
import { runSanad } from '../harness/run-sanad.js';
import { finishingModelPath } from '../fixtures/tiny-model.js';
import { storePath } from '../../src/files/data-dir-layout.js';

let app: TestAppliance;
let client: Api;

before(async () => {
  const prepared = await prepareDataDir();
  const db = openStore(storePath(prepared.dataDir));
  const registry = new ModelRegistry(db, systemClock);
  await registry.add(await finishingModelPath(3, 512), 'short');
  await registry.add(await finishingModelPath(4, 16384), 'long');
  const { token } = createClient(db, 'reader', ['models:read', 'responses:write'], unixSeconds(systemClock));
  db.close();
  // The CLI first, on the data dir no service holds yet: a context past the model's training is refused.
  const refused = await runSanad(['--data-dir', prepared.dataDir, 'models', 'set', 'short', '--context', '4096']);
  assert.equal(refused.code, 1);
  assert.match(refused.stderr, /Model "short" was trained for a context of 512 tokens, so it cannot use 4096; pick 512 or less\./);
  const typo = await runSanad(['--data-dir', prepared.dataDir, 'models', 'set', 'short', '--gpu-layers', 'lots']);
  assert.equal(typo.code, 2);
  assert.match(typo.stderr, /--gpu-layers takes auto, a whole number or "default"; "lots" is none of them\./);
  const ok = await runSanad(['--data-dir', prepared.dataDir, 'models', 'set', 'short', '--context', '384', '--gpu-layers', '0', '--temperature', '0.3']);
  assert.equal(ok.code, 0, ok.stderr);
  app = await startTestAppliance({ dataDir: prepared.dataDir, adminToken: prepared.adminToken });
  client = new Api(app.appliance.url, token);
});
after(() => app.close());

test('settings are stored and shown to admin in /v1/models, and hidden from other clients', async () => {
  const admin = ModelList.parse((await app.api.get('/v1/models')).body).data;
  const short = admin.find((m) => m.id === 'short');
  assert.deepEqual(short?.settings, { context_size: 384, gpu_layers: 0, temperature: 0.3, max_output_tokens: null, trained_context: 512 });
  assert.equal(short?.backup, 'include');
  const other = ModelList.parse((await client.get('/v1/models')).body).data.find((m) => m.id === 'short');
  assert.equal(other?.settings, undefined);
  assert.equal(other?.path, undefined);
  const bad = await app.api.post('/admin/models/long/settings', { max_output_tokens: 0 });
  assert.equal(bad.status, 400);
  assert.match(bad.text, /max output tokens must be a whole number, at least 1/);
  const notPulled = await app.api.post('/admin/models/long/settings', { backup: 'source' });
  assert.equal(notPulled.status, 400);
  assert.match(notPulled.text, /was added from a file, not pulled/);
});

test('a set context is what the engine loads: a prompt past the old 8192 limit works', async () => {
  const prompt = 'word-'.repeat(1900);
  const before = await client.post('/v1/responses', { model: 'long', input: prompt, max_output_tokens: 8 });
  assert.equal(before.status, 400, before.text);
  assert.match(before.text, /model long holds 8192 in its context/);
  const set = await app.api.post('/admin/models/long/settings', { context_size: 12288 });
  assert.equal(set.status, 200, set.text);
  const afterSet = await client.post('/v1/responses', { model: 'long', input: prompt, max_output_tokens: 32 });
  assert.equal(afterSet.status, 200, afterSet.text);
  assert.match(afterSet.text, /"status":"completed"/);
  assert.match(afterSet.text, /"text":"OK,demo!"/);
  const used = /"input_tokens":(\d+)/.exec(afterSet.text)?.[1];
  assert.ok(Number(used) > 8192, `the prompt was ${used} tokens`);
});
