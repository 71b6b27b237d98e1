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

export async function rawEngineTokensPerSecond(tokens: number, runs: number): Promise<number> {
  const llama = await getLlama({ gpu: false, build: 'never', maxThreads: 1, logLevel: LlamaLogLevel.error });
  const model = await llama.loadModel({ modelPath: await tinyModelPath(1) });
  // The same context size the engine picks for this model (its training size, at most 8192).
  const context = await model.createContext({ contextSize: { max: Math.min(model.trainContextSize || 8192, 8192) } });
  const rates: number[] = [];
  try {
    for (let i = 0; i < runs + 1; i++) {
      const sequence = context.getSequence();
      const chat = new LlamaChat({ contextSequence: sequence, chatWrapper: new GeneralChatWrapper() });
      let produced = 0;
      const t0 = performance.now();
      await chat.generateResponse([{ type: 'user', text: 'Hello' }, { type: 'model', response: [] }], {
        maxTokens: tokens,
        repeatPenalty: false,
        onToken: (t) => (produced += t.length),
      });
      const seconds = (performance.now() - t0) / 1000;
      chat.dispose({ disposeSequence: true });
      if (i > 0) rates.push(produced / seconds); // the first run warms caches
    }
  } finally {
    await context.dispose();
    await model.dispose();
    await llama.dispose();
  }
  return median(rates);
}

export async function serviceTokensPerSecond(tokens: number, runs: number): Promise<{ rate: number; events: number }> {
  const prepared = await prepareDataDir();
  const service = await startServiceProcess(prepared.dataDir, prepared.adminToken);
  const rates: number[] = [];
  let events = 0;
  try {
    for (let i = 0; i < runs + 1; i++) {
      const t0 = performance.now();
      const { frames } = await readSse(`${service.url}/v1/responses`, {
        method: 'POST',
        headers: { authorization: `Bearer ${prepared.adminToken}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'tiny', input: 'Hello', max_output_tokens: tokens, stream: true }),
      }, (f) => f.event === 'response.completed' || f.event === 'response.failed', 120_000);
      const seconds = (performance.now() - t0) / 1000;
      const last = frames.at(-1);
      if (last?.event !== 'response.completed') throw new Error(`stream ended with ${String(last?.event)}`);
      const usage = JSON.stringify(last.data).match(/"output_tokens":(\d+)/);
      const produced = Number(usage?.[1] ?? 0);
      events = frames.length;
      if (i > 0) rates.push(produced / seconds); // the first run loads the model
    }
  } finally {
    await service.stop();
    prepared.cleanup();
  }
  return { rate: median(rates), events };
}
