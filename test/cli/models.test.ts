// `sanad models add` / `models list`, run as the real command: the file is registered, never copied.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openStore } from '../../src/store/open.js';
import { latestVersion } from '../../src/store/migrate.js';
import { field, str } from '../harness/api.js';
import { startTestAppliance } from '../harness/appliance.js';
import { tempDir } from '../harness/data-dir.js';
import { tinyModelPath } from '../fixtures/tiny-model.js';
import { assertOneLineError, jsonOut, runCli } from './run-cli.js';
import { storePath } from '../../src/files/data-dir-layout.js';

function fileSizes(dir: string): number[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = join(dir, e.name);
    return e.isDirectory() ? fileSizes(full) : [statSync(full).size];
  });
}

test('models add --json prints the model object of GET /v1/models, and the file is not copied', async (t) => {
  const dataDir = tempDir('sanad-cli-');
  const model = await tinyModelPath(1);
  const size = statSync(model).size;
  const added = await runCli(['models', 'add', model, '--id', 'mine', '--json', '--data-dir', dataDir]);
  assert.equal(added.code, 0, added.stderr);
  const out = jsonOut(added);
  assert.equal(str(out, 'id'), 'mine');
  assert.equal(str(out, 'status'), 'available');
  assert.equal(field(out, 'size_bytes'), size);
  assert.ok(!fileSizes(dataDir).includes(size), `no file of ${size} bytes under the data dir: ${fileSizes(dataDir).join(', ')}`);
  assert.ok(
    fileSizes(dataDir).every((s) => s < size * 2 + 1_000_000),
    'the store holds no model bytes',
  );

  const listed = await runCli(['models', 'list', '--json', '--data-dir', dataDir]);
  assert.equal(listed.code, 0, listed.stderr);
  assert.deepEqual(jsonOut(listed), { object: 'list', data: [out] });

  const admin = await runCli(['token', 'create', '--name', 'admin', '--scopes', 'admin', '--json', '--data-dir', dataDir]);
  assert.equal(admin.code, 0, admin.stderr);
  const ta = await startTestAppliance({ dataDir, adminToken: str(jsonOut(admin), 'token') });
  t.after(() => ta.close());
  const api = await ta.api.get('/v1/models');
  assert.equal(api.status, 200);
  // The API adds what only the running service knows: whether the model is in memory.
  assert.deepEqual(field(api.body, 'data'), [Object.assign({}, out, { loaded: null })], 'the CLI prints what the API serves');
  const run = await ta.api.post('/v1/responses', { model: 'mine', input: 'hi', max_output_tokens: 3 });
  assert.equal(str(run.body, 'status'), 'incomplete', 'the registered file runs');

  // Beside the running service: listing works, a second add of the same file is refused.
  const again = await runCli(['models', 'list', '--json', '--data-dir', dataDir]);
  assert.equal(again.code, 0, again.stderr);
  assertOneLineError(await runCli(['models', 'add', model, '--data-dir', dataDir]), 1, /already registered/);
});

test('a missing file or a non-GGUF file exits 1 with one clear line and registers nothing', async () => {
  const dataDir = tempDir('sanad-cli-');
  const missing = join(tempDir('sanad-nofile-'), 'absent.gguf');
  const text = join(tempDir('sanad-text-'), 'notes.gguf');
  writeFileSync(text, 'these are not the weights you are looking for\n');
  const cases: Array<[string[], number, RegExp]> = [
    [['models', 'add', missing], 1, new RegExp(`no model file at ${missing}`)],
    [['models', 'add', text, '--json'], 1, new RegExp(`${text}.*GGUF`)],
    [['models', 'add', tempDir('sanad-dir-')], 1, /no model file/],
    [['models', 'add'], 2, /exactly one model file/],
    [['models', 'remove', 'x'], 2, /Unknown models command/],
  ];
  for (const [args, code, pattern] of cases) assertOneLineError(await runCli([...args, '--data-dir', dataDir]), code, pattern);
  const listed = await runCli(['models', 'list', '--json', '--data-dir', dataDir]);
  assert.equal(listed.code, 0, listed.stderr);
  assert.deepEqual(jsonOut(listed), { object: 'list', data: [] });
  const human = await runCli(['models', 'list', '--data-dir', dataDir]);
  assert.match(human.stdout, /No models registered yet/);
});

test('a store written by a newer Sanad is refused with one line, exit 1', async () => {
  const dataDir = tempDir('sanad-cli-');
  const db = openStore(storePath(dataDir));
  db.pragma(`user_version = ${latestVersion() + 1}`);
  db.close();
  assertOneLineError(await runCli(['models', 'list', '--data-dir', dataDir]), 1, /newer Sanad/);
});
