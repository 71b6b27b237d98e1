// GET /v1/models: the registered files with a status that follows the file on disk.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { appendFileSync, copyFileSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { field, num, str } from '../harness/api.js';
import { startTestAppliance } from '../harness/appliance.js';
import { tempDir } from '../harness/data-dir.js';
import { tinyModelPath } from '../fixtures/tiny-model.js';
import { assertError } from './contract.js';

const MODEL_KEYS = ['created', 'format', 'id', 'object', 'owned_by', 'sha256', 'size_bytes', 'status'];

function sha256(path: string): string {
  return createHash('sha256').update(readFileSync(path)).digest('hex');
}

test('GET /v1/models lists the registered model in the contract shape; GET /v1/models/{id} returns one', async (t) => {
  const ta = await startTestAppliance();
  t.after(() => ta.close());
  const path = await tinyModelPath(1);
  const res = await ta.api.get('/v1/models');
  assert.equal(res.status, 200, res.text);
  assert.equal(str(res.body, 'object'), 'list');
  const data = field(res.body, 'data');
  assert.ok(Array.isArray(data) && data.length === 1, res.text);
  const model: unknown = data[0];
  for (const key of MODEL_KEYS) field(model, key);
  assert.equal(str(model, 'id'), 'tiny');
  assert.equal(str(model, 'object'), 'model');
  assert.equal(str(model, 'owned_by'), 'local');
  assert.equal(str(model, 'format'), 'gguf');
  assert.equal(str(model, 'status'), 'available');
  assert.equal(num(model, 'size_bytes'), statSync(path).size);
  assert.equal(str(model, 'sha256'), sha256(path));
  assert.ok(Math.abs(num(model, 'created') - Date.now() / 1000) < 600, 'created is Unix seconds');

  const one = await ta.api.get('/v1/models/tiny');
  assert.equal(one.status, 200);
  assert.deepEqual(one.body, model);
  assertError(await ta.api.get('/v1/models/nope'), 404, 'model_not_found');
});

test('status is missing when the file is moved away and changed when its bytes change', async (t) => {
  const ta = await startTestAppliance();
  t.after(() => ta.close());
  const db = ta.appliance.ctx.writer;
  const copy = join(tempDir('sanad-model-'), 'copy.gguf');
  copyFileSync(await tinyModelPath(1), copy);
  const original = readFileSync(copy);
  const added = await ta.api.post('/admin/models', { path: copy, id: 'copy' });
  assert.equal(added.status, 201, added.text);
  assert.equal(str(added.body, 'status'), 'available');
  const row = db.prepare<[], { path: string; size_bytes: number; sha256: string }>("SELECT path, size_bytes, sha256 FROM models WHERE id = 'copy'").get();
  assert.deepEqual(row, { path: copy, size_bytes: original.length, sha256: sha256(copy) });
  const status = async (): Promise<string> => str((await ta.api.get('/v1/models/copy')).body, 'status');

  renameSync(copy, copy + '.away');
  assert.equal(await status(), 'missing');
  const list = await ta.api.get('/v1/models');
  const listed = field(list.body, 'data');
  assert.ok(Array.isArray(listed));
  const entries: unknown[] = listed;
  const statuses = Object.fromEntries(entries.map((m) => [str(m, 'id'), str(m, 'status')]));
  assert.deepEqual(statuses, { tiny: 'available', copy: 'missing' });
  // A run against a missing file fails with a clear code instead of hanging or crashing: before
  // the model began, so as an HTTP error, and nothing of it is kept.
  const run = await ta.api.post('/v1/responses', { model: 'copy', input: 'hi', max_output_tokens: 4 });
  assertError(run, 503, 'model_missing');

  renameSync(copy + '.away', copy);
  assert.equal(await status(), 'available');

  // Same size, one byte different (near the end: tensor data, not the header).
  const flipped = Buffer.from(original);
  const at = flipped.length - 10;
  flipped[at] = (flipped[at] ?? 0) ^ 0xff;
  writeFileSync(copy, flipped);
  assert.equal(await status(), 'changed');
  // The stored fingerprint is not silently replaced by the new one.
  assert.equal(db.prepare<[], { sha256: string }>("SELECT sha256 FROM models WHERE id = 'copy'").get()?.sha256, row?.sha256);

  // The original bytes back (with a new mtime): available again.
  writeFileSync(copy, original);
  assert.equal(await status(), 'available');

  appendFileSync(copy, Buffer.from([0]));
  assert.equal(await status(), 'changed');
});
