import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, truncate, writeFile } from 'node:fs/promises';
import { MAX_METADATA_BYTES, NotGgufError, readGgufHeader } from '../../src/engine/gguf-header.js';
import { scratchPath, tinyModelPath } from '../fixtures/tiny-model.js';

/** Minimal GGUF writer for hand-made headers. */
class Gguf {
  private parts: Buffer[] = [];
  private raw(b: Buffer): this {
    this.parts.push(b);
    return this;
  }
  u32(v: number): this {
    const b = Buffer.alloc(4);
    b.writeUInt32LE(v);
    return this.raw(b);
  }
  u64(v: bigint | number): this {
    const b = Buffer.alloc(8);
    b.writeBigUInt64LE(BigInt(v));
    return this.raw(b);
  }
  str(s: string): this {
    const b = Buffer.from(s);
    return this.u64(b.length).raw(b);
  }
  bytes(b: Buffer): this {
    return this.raw(b);
  }
  header(version: number, tensors: number, kvs: bigint | number): this {
    return this.bytes(Buffer.from('GGUF')).u32(version).u64(tensors).u64(kvs);
  }
  build(): Buffer {
    return Buffer.concat(this.parts);
  }
}

async function fileWith(name: string, content: Buffer | string): Promise<string> {
  const path = await scratchPath(name);
  await writeFile(path, content);
  return path;
}

async function assertNotGguf(path: string, reason: RegExp): Promise<void> {
  await assert.rejects(readGgufHeader(path), (err: unknown) => {
    assert.ok(err instanceof NotGgufError, `got ${String(err)}`);
    assert.ok(err.message.startsWith(`${path} is not a GGUF model file (`), err.message);
    assert.match(err.message, reason);
    assert.ok(!err.message.includes('\n'));
    return true;
  });
}

test('reads back what the tiny model generator wrote', async () => {
  const header = await readGgufHeader(await tinyModelPath());
  assert.equal(header.version, 3);
  assert.equal(header.tensorCount, 21);
  assert.equal(header.metadata['general.name'], 'sanad-tiny');
  assert.equal(header.metadata['llama.context_length'], 8192);
  assert.equal(header.metadata['llama.rope.freq_base'], 10000);
  assert.ok(Math.abs(Number(header.metadata['llama.attention.layer_norm_rms_epsilon']) - 1e-5) < 1e-9);
  assert.equal(header.metadata['tokenizer.ggml.add_bos_token'], true);
  assert.equal(header.metadata['tokenizer.ggml.add_eos_token'], false);
  // The key after the three vocabulary arrays parses, so they were skipped correctly.
  assert.equal(header.metadata['tokenizer.ggml.bos_token_id'], 1);
  assert.equal(header.arrayLengths['tokenizer.ggml.scores'], 260);
  assert.equal('tokenizer.ggml.tokens' in header.metadata, false);
});

test('parses every value type and nested arrays', async () => {
  const typed = (key: string, type: number, value: Buffer): Gguf => new Gguf().str(key).u32(type).bytes(value);
  const f64 = Buffer.alloc(8);
  f64.writeDoubleLE(2.5);
  const big = Buffer.alloc(8);
  big.writeBigUInt64LE(2n ** 60n);
  const neg = Buffer.alloc(8);
  neg.writeBigInt64LE(-5n);
  const nested = new Gguf()
    .str('nested')
    .u32(9)
    .u32(9)
    .u64(2) // array of 2 arrays
    .u32(8)
    .u64(2)
    .str('a')
    .str('bc') // ["a", "bc"]
    .u32(10)
    .u64(3)
    .u64(1)
    .u64(2)
    .u64(3) // [1, 2, 3] as u64
    .build();
  const file = new Gguf()
    .header(2, 0, 8)
    .bytes(typed('i8', 1, Buffer.from([0xff])).build())
    .bytes(typed('u16', 2, Buffer.from([0x34, 0x12])).build())
    .bytes(typed('f64', 12, f64).build())
    .bytes(typed('big', 10, big).build())
    .bytes(typed('neg', 11, neg).build())
    .bytes(nested)
    .bytes(new Gguf().str('empty').u32(9).u32(6).u64(0).build())
    .bytes(typed('after', 8, new Gguf().str('ok').build()).build())
    .build();
  const header = await readGgufHeader(await fileWith('types.gguf', file));
  assert.equal(header.version, 2);
  assert.deepEqual(header.metadata, { i8: -1, u16: 0x1234, f64: 2.5, big: (2n ** 60n).toString(), neg: -5, after: 'ok' });
  assert.deepEqual(header.arrayLengths, { nested: 2, empty: 0 });
});

test('a text file is not GGUF', async () => {
  await assertNotGguf(await fileWith('notes.txt', 'hello, this is not a model\n'), /does not start with "GGUF"/);
});

test('an empty file is not GGUF', async () => {
  await assertNotGguf(await fileWith('empty.gguf', ''), /too short/);
});

test('truncated files are rejected wherever they stop', async () => {
  const full = await readFile(await tinyModelPath());
  for (const length of [10, 30, 1000, 5000]) {
    await assertNotGguf(await fileWith(`cut-${length}.gguf`, full.subarray(0, length)), /truncated/);
  }
});

test('unsupported and big-endian versions are rejected', async () => {
  await assertNotGguf(await fileWith('v1.gguf', new Gguf().header(1, 0, 0).build()), /unsupported version 1/);
  await assertNotGguf(await fileWith('be.gguf', new Gguf().header(0x03000000, 0, 0).build()), /big-endian/);
});

test('a hostile length is refused without allocating it', async () => {
  const hugeString = new Gguf()
    .header(3, 0, 1)
    .u64(2n ** 40n)
    .build();
  await assertNotGguf(await fileWith('huge-key.gguf', hugeString), /truncated|larger than/);
  const hugeArray = new Gguf()
    .header(3, 0, 1)
    .str('a')
    .u32(9)
    .u32(6)
    .u64(2n ** 50n)
    .build();
  await assertNotGguf(await fileWith('huge-array.gguf', hugeArray), /truncated|larger than/);
  const manyKeys = new Gguf().header(3, 0, 2n ** 40n).build();
  await assertNotGguf(await fileWith('many-keys.gguf', manyKeys), /metadata entries/);
});

test('metadata beyond the cap is refused even when the file is that long', async () => {
  // A sparse file (truncate extends without writing): a string one byte longer than the cap.
  const path = await scratchPath('over-cap.gguf');
  await writeFile(
    path,
    new Gguf()
      .header(3, 0, 1)
      .str('k')
      .u32(8)
      .u64(MAX_METADATA_BYTES + 1)
      .build(),
  );
  await truncate(path, MAX_METADATA_BYTES + 1024);
  await assertNotGguf(path, /larger than/);
});

test('a missing file is an fs error, not NotGgufError', async () => {
  await assert.rejects(readGgufHeader('/nonexistent/model.gguf'), (err: unknown) => {
    assert.ok(!(err instanceof NotGgufError));
    assert.ok(err instanceof Error && 'code' in err && err.code === 'ENOENT');
    return true;
  });
});
