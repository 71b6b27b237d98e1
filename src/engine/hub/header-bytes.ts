// The first bytes of a remote GGUF file, where its header is, read with a bound on everything: at
// most MAX_HEADER_BYTES whatever the server sends (a Range it ignores, an endless body), and at most
// HEADER_TIME_LIMIT_MS however slowly it sends them. A URL can be any a person pastes or a hub
// redirects to, so nothing it answers may grow the service without limit.

/** Real headers (vocabulary, merges, tensor infos) stay under ~20 MiB; a larger one is not estimated. */
export const MAX_HEADER_BYTES = 32 * 1024 * 1024;
export const HEADER_TIME_LIMIT_MS = 30_000;

export async function fetchHeaderBytes(url: string, headers: Record<string, string>, signal?: AbortSignal): Promise<Buffer> {
  const limit = AbortSignal.timeout(HEADER_TIME_LIMIT_MS);
  const res = await fetch(url, {
    headers: { ...headers, range: `bytes=0-${MAX_HEADER_BYTES - 1}` },
    redirect: 'follow',
    signal: signal ? AbortSignal.any([signal, limit]) : limit,
  });
  if (!res.ok || res.body === null) {
    await res.body?.cancel().catch(() => undefined);
    throw new Error(`the server answered ${res.status}`);
  }
  const chunks: Uint8Array[] = [];
  let total = 0;
  const reader = res.body.getReader();
  try {
    while (total < MAX_HEADER_BYTES) {
      // Node's fetch types its body's chunks loosely: a chunk is checked to be bytes.
      const step: { done: boolean; value?: unknown } = await reader.read();
      if (step.done) break;
      if (!(step.value instanceof Uint8Array)) throw new Error('the body is not bytes');
      const take = step.value.subarray(0, MAX_HEADER_BYTES - total);
      chunks.push(take);
      total += take.length;
    }
  } finally {
    // Whatever the server would still send is not read.
    await reader.cancel().catch(() => undefined);
  }
  return Buffer.concat(chunks, total);
}
