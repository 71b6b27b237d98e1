// Writing a GGUF v3 file from metadata and f32 tensors: what the demo model generators share (no
// model can be downloaded here, so every test model is written by one of them).

/** GGUF metadata value types. */
export const T_UINT32 = 4;
export const T_INT32 = 5;
export const T_FLOAT32 = 6;
export const T_BOOL = 7;
export const T_STRING = 8;
export const T_ARRAY = 9;

const GGML_F32 = 0;
export const GGUF_ALIGNMENT = 32;

export interface Tensor {
  name: string;
  /** ggml order: ne0 (the innermost, contiguous dimension) first. */
  shape: number[];
  data: Float32Array;
}

export type MetadataWriter = (out: ByteWriter) => void;

export const u32 =
  (key: string, value: number): MetadataWriter =>
  (o) => {
    o.string(key);
    o.u32(T_UINT32);
    o.u32(value);
  };
export const f32 =
  (key: string, value: number): MetadataWriter =>
  (o) => {
    o.string(key);
    o.u32(T_FLOAT32);
    o.f32(value);
  };
export const str =
  (key: string, value: string): MetadataWriter =>
  (o) => {
    o.string(key);
    o.u32(T_STRING);
    o.string(value);
  };
export const bool =
  (key: string, value: boolean): MetadataWriter =>
  (o) => {
    o.string(key);
    o.u32(T_BOOL);
    o.u8(value ? 1 : 0);
  };
export const array =
  (key: string, type: number, count: number, item: (o: ByteWriter, i: number) => void): MetadataWriter =>
  (o) => {
    o.string(key);
    o.u32(T_ARRAY);
    o.u32(type);
    o.u64(count);
    for (let i = 0; i < count; i++) item(o, i);
  };

/** The whole file: header, metadata, tensor infos, then each tensor's data aligned. */
export function buildGguf(metadata: MetadataWriter[], tensors: Tensor[]): Buffer {
  const out = new ByteWriter();
  out.bytes(Buffer.from('GGUF', 'latin1'));
  out.u32(3);
  out.u64(tensors.length);
  out.u64(metadata.length);
  for (const write of metadata) write(out);

  let offset = 0;
  const offsets: number[] = [];
  for (const tensor of tensors) {
    out.string(tensor.name);
    out.u32(tensor.shape.length);
    for (const dim of tensor.shape) out.u64(dim);
    out.u32(GGML_F32);
    out.u64(offset);
    offsets.push(offset);
    offset = alignUp(offset + tensor.data.byteLength, GGUF_ALIGNMENT);
  }
  out.pad(GGUF_ALIGNMENT);
  const dataStart = out.length;
  tensors.forEach((tensor, i) => {
    out.pad(GGUF_ALIGNMENT);
    if (out.length - dataStart !== offsets[i]) throw new Error('gguf-writer: tensor offset mismatch');
    out.bytes(Buffer.from(tensor.data.buffer, tensor.data.byteOffset, tensor.data.byteLength));
  });
  return out.toBuffer();
}

/** mulberry32: a tiny, well-mixed 32-bit PRNG; enough for reproducible test weights. */
export function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function alignUp(n: number, alignment: number): number {
  return Math.ceil(n / alignment) * alignment;
}

/** Little-endian append-only writer. */
export class ByteWriter {
  private chunks: Buffer[] = [];
  length = 0;

  bytes(b: Buffer): void {
    this.chunks.push(b);
    this.length += b.length;
  }
  u8(v: number): void {
    const b = Buffer.alloc(1);
    b.writeUInt8(v);
    this.bytes(b);
  }
  u32(v: number): void {
    const b = Buffer.alloc(4);
    b.writeUInt32LE(v);
    this.bytes(b);
  }
  i32(v: number): void {
    const b = Buffer.alloc(4);
    b.writeInt32LE(v);
    this.bytes(b);
  }
  f32(v: number): void {
    const b = Buffer.alloc(4);
    b.writeFloatLE(v);
    this.bytes(b);
  }
  u64(v: number): void {
    const b = Buffer.alloc(8);
    b.writeBigUInt64LE(BigInt(v));
    this.bytes(b);
  }
  string(s: string): void {
    const b = Buffer.from(s, 'utf8');
    this.u64(b.length);
    this.bytes(b);
  }
  pad(alignment: number): void {
    const extra = alignUp(this.length, alignment) - this.length;
    if (extra > 0) this.bytes(Buffer.alloc(extra));
  }
  toBuffer(): Buffer {
    return Buffer.concat(this.chunks, this.length);
  }
}
