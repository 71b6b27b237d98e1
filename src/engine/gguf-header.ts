// Reads the header and scalar metadata of a GGUF file without loading it: a model is gigabytes,
// its header is kilobytes to a few MiB. Used to reject a wrong file with a clear sentence before
// llama.cpp sees it, and to show what a model file is.
import { open, type FileHandle } from 'node:fs/promises';

export class NotGgufError extends Error {
  override name = 'NotGgufError';
  constructor(path: string, reason: string) {
    super(`${path} is not a GGUF model file (${reason}).`);
  }
}

export type GgufScalar = string | number | boolean;

export interface GgufHeaderInfo {
  version: number;
  tensorCount: number;
  /** Scalar and string values by key. 64-bit integers beyond 2^53 come as decimal strings. */
  metadata: Record<string, GgufScalar>;
  /** Length of each array value (arrays are skipped, not returned), e.g. the vocabulary size. */
  arrayLengths: Record<string, number>;
}

/** A hostile header could claim gigabytes of metadata; real ones stay well under this. */
export const MAX_METADATA_BYTES = 64 * 1024 * 1024;
const CHUNK = 64 * 1024;

/** GGUF metadata value types (plain numbers: they are compared with numbers read from disk). */
const GgufType = Object.freeze({
  Uint8: 0,
  Int8: 1,
  Uint16: 2,
  Int16: 3,
  Uint32: 4,
  Int32: 5,
  Float32: 6,
  Bool: 7,
  String: 8,
  Array: 9,
  Uint64: 10,
  Int64: 11,
  Float64: 12,
});

const FIXED_SIZES: ReadonlyMap<number, number> = new Map([
  [GgufType.Uint8, 1],
  [GgufType.Int8, 1],
  [GgufType.Uint16, 2],
  [GgufType.Int16, 2],
  [GgufType.Uint32, 4],
  [GgufType.Int32, 4],
  [GgufType.Float32, 4],
  [GgufType.Bool, 1],
  [GgufType.Uint64, 8],
  [GgufType.Int64, 8],
  [GgufType.Float64, 8],
]);

export async function readGgufHeader(path: string): Promise<GgufHeaderInfo> {
  const handle = await open(path, 'r');
  try {
    const size = (await handle.stat()).size;
    const reader = new BoundedReader(handle, path, size, Math.min(size, MAX_METADATA_BYTES));
    return await parse(reader, path);
  } finally {
    await handle.close();
  }
}

async function parse(r: BoundedReader, path: string): Promise<GgufHeaderInfo> {
  if (r.fileSize < 4) throw new NotGgufError(path, 'the file is too short');
  const magic = (await r.take(4)).toString('latin1');
  if (magic !== 'GGUF') throw new NotGgufError(path, 'it does not start with "GGUF"');
  const version = (await r.take(4)).readUInt32LE(0);
  if (version !== 2 && version !== 3) {
    // A big-endian GGUF reads as version 0x02000000 or 0x03000000 here.
    const hint = version === 0x02000000 || version === 0x03000000 ? 'big-endian files are not supported' : `unsupported version ${version}`;
    throw new NotGgufError(path, hint);
  }
  const tensorCount = toSafeNumber((await r.take(8)).readBigUInt64LE(0), path, 'tensor count');
  const kvCount = toSafeNumber((await r.take(8)).readBigUInt64LE(0), path, 'metadata count');
  // Each entry needs at least a key length (8), a type (4) and one byte: a cheap sanity bound.
  if (kvCount > MAX_METADATA_BYTES / 13) throw new NotGgufError(path, `it claims ${kvCount} metadata entries`);

  const metadata: Record<string, GgufScalar> = {};
  const arrayLengths: Record<string, number> = {};
  for (let i = 0; i < kvCount; i++) {
    const key = await r.string();
    const type = await r.u32();
    if (type === GgufType.Array) {
      const itemType = await r.u32();
      const count = toSafeNumber((await r.take(8)).readBigUInt64LE(0), path, `length of ${key}`);
      await skipArray(r, itemType, count, 1);
      arrayLengths[key] = count;
    } else {
      metadata[key] = await scalar(r, type);
    }
  }
  return { version, tensorCount, metadata, arrayLengths };
}

async function scalar(r: BoundedReader, type: number): Promise<GgufScalar> {
  switch (type) {
    case GgufType.Uint8:
      return (await r.take(1)).readUInt8(0);
    case GgufType.Int8:
      return (await r.take(1)).readInt8(0);
    case GgufType.Uint16:
      return (await r.take(2)).readUInt16LE(0);
    case GgufType.Int16:
      return (await r.take(2)).readInt16LE(0);
    case GgufType.Uint32:
      return r.u32();
    case GgufType.Int32:
      return (await r.take(4)).readInt32LE(0);
    case GgufType.Float32:
      return (await r.take(4)).readFloatLE(0);
    case GgufType.Bool:
      return (await r.take(1)).readUInt8(0) !== 0;
    case GgufType.String:
      return r.string();
    case GgufType.Uint64:
      return bigToScalar((await r.take(8)).readBigUInt64LE(0));
    case GgufType.Int64:
      return bigToScalar((await r.take(8)).readBigInt64LE(0));
    case GgufType.Float64:
      return (await r.take(8)).readDoubleLE(0);
    default:
      throw r.fail(`unknown metadata type ${type}`);
  }
}

async function skipArray(r: BoundedReader, itemType: number, count: number, depth: number): Promise<void> {
  if (depth > 8) throw r.fail('arrays nested too deeply');
  const fixed = FIXED_SIZES.get(itemType);
  if (fixed !== undefined) {
    r.skip(count * fixed);
    return;
  }
  if (itemType === GgufType.String) {
    for (let i = 0; i < count; i++) r.skip(await r.length('string'));
    return;
  }
  if (itemType === GgufType.Array) {
    for (let i = 0; i < count; i++) {
      const inner = await r.u32();
      const innerCount = await r.length('array');
      await skipArray(r, inner, innerCount, depth + 1);
    }
    return;
  }
  throw r.fail(`unknown array item type ${itemType}`);
}

function bigToScalar(v: bigint): GgufScalar {
  return v >= BigInt(Number.MIN_SAFE_INTEGER) && v <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : v.toString();
}

function toSafeNumber(v: bigint, path: string, what: string): number {
  if (v > BigInt(Number.MAX_SAFE_INTEGER)) throw new NotGgufError(path, `its ${what} is impossibly large`);
  return Number(v);
}

/**
 * Sequential reader over a file with a small window buffer. `limit` bounds how far it will go,
 * so a lying length field costs an error, not memory.
 */
class BoundedReader {
  private pos = 0;
  private window = Buffer.alloc(0);
  private windowStart = 0;

  constructor(
    private readonly handle: FileHandle,
    private readonly path: string,
    readonly fileSize: number,
    private readonly limit: number,
  ) {}

  fail(reason: string): NotGgufError {
    return new NotGgufError(this.path, reason);
  }

  private check(n: number): void {
    if (this.pos + n > this.fileSize) throw this.fail('the file is truncated');
    if (this.pos + n > this.limit) throw this.fail(`its metadata is larger than ${MAX_METADATA_BYTES / 1024 / 1024} MiB`);
  }

  skip(n: number): void {
    this.check(n);
    this.pos += n;
  }

  async take(n: number): Promise<Buffer> {
    this.check(n);
    const offset = this.pos - this.windowStart;
    if (offset < 0 || offset + n > this.window.length) {
      const length = Math.min(Math.max(n, CHUNK), this.limit - this.pos);
      const buffer = Buffer.alloc(length);
      const { bytesRead } = await this.handle.read(buffer, 0, length, this.pos);
      if (bytesRead < n) throw this.fail('the file is truncated');
      this.window = buffer.subarray(0, bytesRead);
      this.windowStart = this.pos;
    }
    const start = this.pos - this.windowStart;
    this.pos += n;
    return this.window.subarray(start, start + n);
  }

  async u32(): Promise<number> {
    return (await this.take(4)).readUInt32LE(0);
  }

  /** A u64 length that must fit in what is left of the metadata budget. */
  async length(what: string): Promise<number> {
    const v = (await this.take(8)).readBigUInt64LE(0);
    if (v > BigInt(this.limit)) {
      throw v > BigInt(this.fileSize) ? this.fail('the file is truncated') : this.fail(`a ${what} is larger than the metadata limit`);
    }
    return Number(v);
  }

  async string(): Promise<string> {
    const n = await this.length('string');
    return (await this.take(n)).toString('utf8');
  }
}
