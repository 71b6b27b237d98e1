// A workaround for a race in node-llama-cpp 3.21.1 with llama.cpp's lazy output reordering.
//
// When sequences of one context decode in the same batch, llama.cpp may compute their outputs in
// another order than the batch's; it records the row swaps and applies them lazily, on the first
// llama_get_logits_ith() after the decode (llama_context::output_reorder, not thread-safe).
// node-llama-cpp samples each sequence's next token in its own AsyncWorker on the libuv pool, so
// two samplers can apply the swaps at the same time: a row is swapped twice (or half-way) and one
// sequence samples from the other's logits. Seen as a first token "handed over" between two
// prompts batched together (13 of 200 seeded pairs here, 0 of 200 with this in place).
//
// Sampling the sequences of a context one after the other removes the overlap. Sampling is cheap
// beside the decode it follows (one vocabulary's worth of work per sequence), so little is lost.
import type { LlamaContext } from 'node-llama-cpp';

type Sample = (...args: unknown[]) => Promise<unknown>;

function hasSampleToken(value: unknown): value is { sampleToken: Sample } {
  return typeof value === 'object' && value !== null && 'sampleToken' in value && typeof value.sampleToken === 'function';
}

/** Makes the context's token sampling run one call at a time. False when the internals changed. */
export function sampleOneAtATime(context: LlamaContext): boolean {
  // `_ctx` is node-llama-cpp's native context; it is not in its typings, hence Reflect.
  const native: unknown = Reflect.get(context, '_ctx');
  if (!hasSampleToken(native)) return false;
  const sample = native.sampleToken.bind(native);
  let last: Promise<unknown> = Promise.resolve();
  // The addon's methods are read-only on its prototype, so the wrapper is defined on the instance.
  Object.defineProperty(native, 'sampleToken', {
    value: (...args: unknown[]): Promise<unknown> => {
      const run = last.then(() => sample(...args));
      last = run.catch(() => undefined);
      return run;
    },
  });
  return true;
}
