// Streaming throughput: tokens/s through the service with every event persisted (stream: true,
// SSE, deltas group-committed with fsync), against node-llama-cpp driven directly on the same
// model, same thread count and same sampling, in the same run.
import { performance } from 'node:perf_hooks';
import { GeneralChatWrapper, getLlama, LlamaChat, LlamaLogLevel } from 'node-llama-cpp';
import { prepareDataDir } from '../test/harness/data-dir.js';
import { startServiceProcess } from '../test/harness/service-process.js';
import { readSse } from '../test/harness/sse.js';
import { tinyModelPath } from '../test/fixtures/tiny-model.js';
import { median } from './stats.js';

export async function rawEngineTokensPerSecond(tokens: number, runs: number): Promise<{ rate: number; ttftMs: number }> {
  const llama = await getLlama({ gpu: false, build: 'never', maxThreads: 1, logLevel: LlamaLogLevel.error });
  const model = await llama.loadModel({ modelPath: await tinyModelPath(1) });
  // The same context size the engine picks for this model (its training size, at most 8192).
  const context = await model.createContext({ contextSize: { max: Math.min(model.trainContextSize || 8192, 8192) } });
  const rates: number[] = [];
  const firsts: number[] = [];
  try {
    for (let i = 0; i < runs + 1; i++) {
      let first: number | null = null;
      const sequence = context.getSequence();
      const chat = new LlamaChat({ contextSequence: sequence, chatWrapper: new GeneralChatWrapper() });
      let produced = 0;
      const t0 = performance.now();
      await chat.generateResponse([{ type: 'user', text: 'Hello' }, { type: 'model', response: [] }], {
        maxTokens: tokens,
        repeatPenalty: false,
        onToken: (t) => {
          first ??= performance.now() - t0;
          produced += t.length;
        },
      });
      const seconds = (performance.now() - t0) / 1000;
      chat.dispose({ disposeSequence: true });
      if (i > 0) {
        // the first run warms caches
        rates.push(produced / seconds);
        if (first !== null) firsts.push(first);
      }
    }
  } finally {
    await context.dispose();
    await model.dispose();
    await llama.dispose();
  }
  return { rate: median(rates), ttftMs: median(firsts) };
}

/** Through the service: time to first token is from sending the request to the first delta frame. */
export async function serviceTokensPerSecond(tokens: number, runs: number): Promise<{ rate: number; events: number; ttftMs: number }> {
  const prepared = await prepareDataDir();
  const service = await startServiceProcess(prepared.dataDir, prepared.adminToken);
  const rates: number[] = [];
  const firsts: number[] = [];
  let events = 0;
  try {
    for (let i = 0; i < runs + 1; i++) {
      let first: number | null = null;
      const t0 = performance.now();
      const { frames } = await readSse(`${service.url}/v1/responses`, {
        method: 'POST',
        headers: { authorization: `Bearer ${prepared.adminToken}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'tiny', input: 'Hello', max_output_tokens: tokens, stream: true }),
      }, (f) => {
        if (f.event === 'response.output_text.delta') first ??= performance.now() - t0;
        return f.event === 'response.completed' || f.event === 'response.failed';
      }, 120_000);
      const seconds = (performance.now() - t0) / 1000;
      const last = frames.at(-1);
      if (last?.event !== 'response.completed') throw new Error(`stream ended with ${String(last?.event)}`);
      const usage = JSON.stringify(last.data).match(/"output_tokens":(\d+)/);
      const produced = Number(usage?.[1] ?? 0);
      events = frames.length;
      if (i > 0) {
        // the first run loads the model
        rates.push(produced / seconds);
        if (first !== null) firsts.push(first);
      }
    }
  } finally {
    await service.stop();
    prepared.cleanup();
  }
  return { rate: median(rates), events, ttftMs: median(firsts) };
}
