// Health: /health/live while serving, /health/ready with its checks (503 naming a failing one).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { field, str } from '../harness/api.js';
import { startTestAppliance } from '../harness/appliance.js';
import { tempDir } from '../harness/data-dir.js';
import { tinyModelPath } from '../fixtures/tiny-model.js';

test('/health/live answers 200 without a token', async (t) => {
  const ta = await startTestAppliance();
  t.after(() => ta.close());
  const res = await ta.api.withToken(null).get('/health/live');
  assert.equal(res.status, 200);
  assert.equal(str(res.body, 'status'), 'live');
});

test('/health/ready is 200 with checks.database.ok, warns about a missing model, and 503 on a failing check', async (t) => {
  const ta = await startTestAppliance();
  t.after(() => ta.close());
  const anon = ta.api.withToken(null);
  // Without admin: the overall status and the names of what fails, nothing more (no paths, no repositories).
  const bare = await anon.get('/health/ready');
  assert.equal(bare.status, 200, bare.text);
  assert.deepEqual(Object.keys(bare.body ?? {}).sort(), ['failing', 'status', 'warnings']);
  assert.deepEqual(field(bare.body, 'failing'), []);
  const ready = await ta.api.get('/health/ready');
  assert.equal(ready.status, 200, ready.text);
  assert.equal(str(ready.body, 'status'), 'ready');
  assert.equal(field(ready.body, 'checks', 'database', 'ok'), true);
  assert.equal(field(ready.body, 'checks', 'models', 'ok'), true);

  // A missing model file is reported but does not make the service unready.
  const copy = join(tempDir('sanad-model-'), 'gone.gguf');
  copyFileSync(await tinyModelPath(1), copy);
  assert.equal((await ta.api.post('/admin/models', { path: copy, id: 'gone' })).status, 201);
  rmSync(copy);
  const warned = await ta.api.get('/health/ready');
  assert.equal(warned.status, 200, warned.text);
  assert.equal(field(warned.body, 'checks', 'models', 'ok'), false);
  assert.match(str(warned.body, 'checks', 'models', 'detail'), /gone is missing/);

  ta.appliance.ctx.healthChecks.push({
    name: 'probe',
    run: () => {
      throw new Error('the probe is down');
    },
  });
  const unreadyBare = await anon.get('/health/ready');
  assert.equal(unreadyBare.status, 503);
  assert.deepEqual(field(unreadyBare.body, 'failing'), ['probe']);
  assert.doesNotMatch(unreadyBare.text, /the probe is down/, 'no detail without admin');
  const unready = await ta.api.get('/health/ready');
  assert.equal(unready.status, 503, unready.text);
  assert.equal(str(unready.body, 'status'), 'unready');
  assert.equal(field(unready.body, 'checks', 'probe', 'ok'), false);
  assert.equal(str(unready.body, 'checks', 'probe', 'detail'), 'the probe is down');
  assert.equal(field(unready.body, 'checks', 'database', 'ok'), true, 'the other checks are still reported');
  assert.ok(!unready.text.includes('    at '));
  assert.equal((await anon.get('/health/live')).status, 200, 'live does not depend on readiness');
});

test('/health/ready reads the keychain at most once a minute, however often it is asked', async (t) => {
  const ta = await startTestAppliance();
  t.after(() => ta.close());
  const store = ta.appliance.ctx.secrets.store;
  let reads = 0;
  const get = store.get.bind(store);
  store.get = async (name) => {
    reads += 1;
    return get(name);
  };
  for (let i = 0; i < 20; i++) assert.equal((await ta.api.get('/health/ready')).status, 200);
  assert.ok(reads <= 1, `the keychain was read ${reads} times for 20 requests`);
});
