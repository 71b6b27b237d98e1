// Streaming throughput: tokens/s through the service with every event persisted (stream: true,
// SSE, deltas group-committed with fsync), against node-llama-cpp driven directly on the same
// model, same thread count and same sampling, in the same run.
import { performance } from 'node:perf_hooks';
import { GeneralChatWrapper, getLlama, LlamaChat, LlamaLogLevel, type GbnfJsonSchema } from 'node-llama-cpp';
import { prepareDataDir } from '../test/harness/data-dir.js';
import { startServiceProcess } from '../test/harness/service-process.js';
import { readSse } from '../test/harness/sse.js';
import { tinyModelPath } from '../test/fixtures/tiny-model.js';
import { median } from './stats.js';

export interface Run {
  rate: number;
  ttftMs: number | null;
}

/**
 * node-llama-cpp driven directly: one generation on a fresh sequence of a context kept open,
 * optionally under the grammar of a JSON schema (bench/structured.ts).
 */
export async function openRaw(schema?: GbnfJsonSchema, modelPath?: string): Promise<{ run: (tokens: number) => Promise<Run>; close: () => Promise<void> }> {
  const llama = await getLlama({ gpu: false, build: 'never', maxThreads: 1, logLevel: LlamaLogLevel.error });
  const model = await llama.loadModel({ modelPath: modelPath ?? (await tinyModelPath(1)) });
  // The same context size the engine picks for this model (its training size, at most 8192).
  const context = await model.createContext({ contextSize: { max: Math.min(model.trainContextSize || 8192, 8192) } });
  const grammar = schema ? await llama.createGrammarForJsonSchema<GbnfJsonSchema>(schema) : undefined;
  const run = async (tokens: number): Promise<Run> => {
    let first: number | null = null;
    const chat = new LlamaChat({ contextSequence: context.getSequence(), chatWrapper: new GeneralChatWrapper() });
    let produced = 0;
    const t0 = performance.now();
    await chat.generateResponse(
      [
        { type: 'user', text: 'Hello' },
        { type: 'model', response: [] },
      ],
      {
        maxTokens: tokens,
        repeatPenalty: false,
        ...(grammar ? { grammar } : {}),
        onToken: (t) => {
          first ??= performance.now() - t0;
          produced += t.length;
        },
      },
    );
    const seconds = (performance.now() - t0) / 1000;
    chat.dispose({ disposeSequence: true });
    return { rate: produced / seconds, ttftMs: first };
  };
  const close = async (): Promise<void> => {
    await context.dispose();
    await model.dispose();
    await llama.dispose();
  };
  return { run, close };
}

/** One streamed response through the service; time to first token is request sent to first delta frame read. */
async function serviceRun(url: string, token: string, tokens: number): Promise<Run & { events: number }> {
  let first: number | null = null;
  const t0 = performance.now();
  const { frames } = await readSse(
    `${url}/v1/responses`,
    {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'tiny', input: 'Hello', max_output_tokens: tokens, stream: true }),
    },
    (f) => {
      if (f.event === 'response.output_text.delta') first ??= performance.now() - t0;
      // A run to the token limit ends response.incomplete on the Responses stream (OpenAI's event).
      return f.event === 'response.completed' || f.event === 'response.incomplete' || f.event === 'response.failed';
    },
    120_000,
  );
  const seconds = (performance.now() - t0) / 1000;
  const last = frames.at(-1);
  if (last?.event !== 'response.completed' && last?.event !== 'response.incomplete') throw new Error(`stream ended with ${String(last?.event)}`);
  const usage = JSON.stringify(last.data).match(/"output_tokens":(\d+)/);
  return { rate: Number(usage?.[1] ?? 0) / seconds, ttftMs: first, events: frames.length };
}

export interface StreamingResult {
  raw: { rate: number; ttftMs: number };
  sanad: { rate: number; ttftMs: number; events: number };
  /** The median of each round's own ratio (raw and Sanad back to back, order alternating). */
  pairedRatio: number;
  runs: number;
}

/**
 * Raw and Sanad alternate, round by round (raw first in even rounds, Sanad first in odd ones),
 * so a slow or fast spell of the machine falls on both: the raw engine alone moves ±13% between
 * runs here. A first round of each warms caches and loads the model, and is not counted.
 */
/** `serviceEnv`: more environment for `sanad serve` (bench/slow-flush.ts: a slow disk). */
export async function streamingBench(tokens: number, runs: number, serviceEnv: Record<string, string> = {}): Promise<StreamingResult> {
  const raw = await openRaw();
  const prepared = await prepareDataDir();
  const service = await startServiceProcess(prepared.dataDir, prepared.adminToken, serviceEnv);
  const raws: Run[] = [];
  const sanads: Array<Run & { events: number }> = [];
  try {
    await raw.run(tokens);
    await serviceRun(service.url, prepared.adminToken, tokens);
    for (let i = 0; i < runs; i++) {
      if (i % 2 === 0) raws.push(await raw.run(tokens));
      sanads.push(await serviceRun(service.url, prepared.adminToken, tokens));
      if (i % 2 === 1) raws.push(await raw.run(tokens));
    }
  } finally {
    await service.stop();
    prepared.cleanup();
    await raw.close();
  }
  const ttfts = (list: Run[]): number[] => list.map((r) => r.ttftMs).filter((t): t is number => t !== null);
  return {
    raw: { rate: median(raws.map((r) => r.rate)), ttftMs: median(ttfts(raws)) },
    sanad: { rate: median(sanads.map((r) => r.rate)), ttftMs: median(ttfts(sanads)), events: sanads.at(-1)?.events ?? 0 },
    pairedRatio: median(sanads.map((r, i) => r.rate / (raws[i]?.rate ?? r.rate))),
    runs,
  };
}
