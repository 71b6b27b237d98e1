import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { buildTinyModel, isTinyModelPrintable, tinyModelByteOfToken, writeTinyModel } from '../../src/demo/tiny-model.js';
import { readGgufHeader } from '../../src/engine/gguf-header.js';
import { scratchPath } from '../fixtures/tiny-model.js';

test('the same seed gives the same bytes, another seed other weights', () => {
  const a = buildTinyModel({ seed: 7 });
  const b = buildTinyModel({ seed: 7 });
  const c = buildTinyModel({ seed: 8 });
  assert.ok(a.equals(b));
  assert.equal(a.length, c.length);
  assert.ok(!a.equals(c));
});

test('it is a few hundred KB and quick to make', async () => {
  const path = await scratchPath('size.gguf');
  const started = performance.now();
  await writeTinyModel(path);
  const elapsed = performance.now() - started;
  const size = (await readFile(path)).length;
  assert.ok(size > 100_000 && size < 1_000_000, `size ${size}`);
  assert.ok(elapsed < 2000, `took ${elapsed} ms`);
});

test('the header says what llama.cpp needs', async () => {
  const path = await scratchPath('header.gguf');
  await writeTinyModel(path, { seed: 3, contextLength: 512 });
  const header = await readGgufHeader(path);
  assert.equal(header.version, 3);
  assert.equal(header.tensorCount, 2 + 2 * 9 + 1);
  const m = header.metadata;
  assert.equal(m['general.architecture'], 'llama');
  assert.equal(m['general.alignment'], 32);
  assert.equal(m['general.file_type'], 0);
  assert.equal(m['llama.context_length'], 512);
  assert.equal(m['llama.embedding_length'], 64);
  assert.equal(m['llama.rope.dimension_count'], 16);
  assert.equal(m['tokenizer.ggml.model'], 'llama');
  assert.equal(m['tokenizer.ggml.add_bos_token'], true);
  assert.equal(m['tokenizer.ggml.eos_token_id'], 2);
  assert.equal(m['llama.vocab_size'], 260);
  assert.equal(header.arrayLengths['tokenizer.ggml.tokens'], 260);
  assert.equal(header.arrayLengths['tokenizer.ggml.token_type'], 260);
});

test('printable tokens are the visible ASCII bytes only', () => {
  assert.equal(tinyModelByteOfToken(3), 0);
  assert.equal(tinyModelByteOfToken(2), null);
  assert.equal(tinyModelByteOfToken(259), null);
  assert.ok(isTinyModelPrintable(0x41));
  assert.ok(!isTinyModelPrintable(0x20));
  assert.ok(!isTinyModelPrintable(0x0a));
  assert.ok(!isTinyModelPrintable(0x7f));
});
