// SHA-256 of a file read into one buffer again and again. A fresh buffer per chunk (a read
// stream's way) costs page faults that made hashing a file from the page cache 5x slower than
// SHA-256 itself; and each chunk is about a millisecond of hashing, so even on the service's
// event loop this never holds it for long.
import { createHash } from 'node:crypto';
import { open } from 'node:fs/promises';

export const CHUNK_BYTES = 1 << 20;

export async function hashInChunks(path: string, buffer: Buffer = Buffer.allocUnsafe(CHUNK_BYTES)): Promise<{ sha256: string; bytes: number }> {
  const h = createHash('sha256');
  let bytes = 0;
  const file = await open(path, 'r');
  try {
    for (;;) {
      const { bytesRead } = await file.read(buffer, 0, buffer.length, null);
      if (bytesRead === 0) break;
      // update() has consumed the bytes when it returns, so the buffer can take the next read.
      h.update(buffer.subarray(0, bytesRead));
      bytes += bytesRead;
    }
  } finally {
    await file.close();
  }
  return { sha256: h.digest('hex'), bytes };
}
