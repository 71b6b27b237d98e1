// The other doors (issue 52), each against its baseline in the same run on the generated mid-size
// model, one thread each side; rounds alternate the order, so a slow spell falls on both sides:
// - embeddings: a batch of 64 short texts in one POST /v1/embeddings, against node-llama-cpp's
//   embedding context embedding the same texts directly;
// - Anthropic Messages: tokens/s of a streamed message (every event stored) against node-llama-cpp
//   generating the same number of tokens directly, as the Responses door is measured;
// - rerank: 64 documents against one query in one POST /v1/rerank, against node-llama-cpp's
//   ranking context scoring them directly, on the generated reranker (a small model: what this
//   measures is the door's own cost around the engine, not a reranker's speed).
import { performance } from 'node:perf_hooks';
import { getLlama, LlamaLogLevel, type LlamaModel } from 'node-llama-cpp';
import { prepareDataDir } from '../test/harness/data-dir.js';
import { startServiceProcess } from '../test/harness/service-process.js';
import { median } from './stats.js';
import { openRaw } from './streaming.js';
import { pair, streamed } from './structured.js';

const TEXTS = Array.from({ length: 64 }, (_, i) => `Note ${i}: the backup of day ${i % 7} was proven by drill ${i * 3}.`);

const QUERY = 'which backup was proven by a drill';

interface RawContext {
  dispose(): Promise<void>;
}

/**
 * node-llama-cpp alone on a model, one thread, with a context of the size Sanad's engine gives it
 * (the model's, at most 8,192): `run` does `each` for every text and says how many a second.
 */
async function openRawContext<C extends RawContext>(
  modelPath: string,
  make: (model: LlamaModel, contextSize: number) => Promise<C>,
  each: (context: C, text: string) => Promise<unknown>,
): Promise<{ run: () => Promise<number>; close: () => Promise<void> }> {
  const llama = await getLlama({ gpu: false, build: 'never', maxThreads: 1, logLevel: LlamaLogLevel.error });
  const model = await llama.loadModel({ modelPath });
  const context = await make(model, Math.min(model.trainContextSize || 8192, 8192));
  const run = async (): Promise<number> => {
    const t0 = performance.now();
    for (const text of TEXTS) await each(context, text);
    return TEXTS.length / ((performance.now() - t0) / 1000);
  };
  const close = async (): Promise<void> => {
    await context.dispose();
    await model.dispose();
    await llama.dispose();
  };
  return { run, close };
}

const openRawEmbedder = (modelPath: string): ReturnType<typeof openRawContext> =>
  openRawContext(
    modelPath,
    (model, contextSize) => model.createEmbeddingContext({ contextSize, threads: 1 }),
    (context, text) => context.getEmbeddingFor(text),
  );

const openRawRanker = (modelPath: string): ReturnType<typeof openRawContext> =>
  openRawContext(
    modelPath,
    (model, contextSize) => model.createRankingContext({ contextSize, threads: 1 }),
    (context, text) => context.rank(QUERY, text),
  );

type Samples = Record<'raw' | 'sanad' | 'ratio', number[]>;

function samples(): Samples {
  return { raw: [], sanad: [], ratio: [] };
}

async function sample(into: Samples, raw: () => Promise<number>, sanad: () => Promise<number>, swap: boolean): Promise<void> {
  const [r, s] = await pair(raw, sanad, swap);
  into.raw.push(r);
  into.sanad.push(s);
  into.ratio.push(s / r);
}

function summary(of: Samples): { raw: number; sanad: number; pairedRatio: number } {
  return { raw: median(of.raw), sanad: median(of.sanad), pairedRatio: median(of.ratio) };
}

export interface DoorsBench {
  rounds: number;
  tokens: number;
  embeddings: { raw: number; sanad: number; pairedRatio: number };
  messages: { raw: number; sanad: number; pairedRatio: number };
  rerank: { raw: number; sanad: number; pairedRatio: number };
}

export async function doorsBench(modelPath: string, rerankerPath: string, tokens: number, rounds: number): Promise<DoorsBench> {
  const rawEmbed = await openRawEmbedder(modelPath);
  const rawRank = await openRawRanker(rerankerPath);
  const rawGenerate = await openRaw(undefined, modelPath);
  const prepared = await prepareDataDir();
  const service = await startServiceProcess(prepared.dataDir, prepared.adminToken);
  const added = await service.api.post('/admin/models', { path: modelPath, id: 'mid' });
  if (added.status !== 201) throw new Error(`adding the mid-size model: ${added.text}`);
  const ranker = await service.api.post('/admin/models', { path: rerankerPath, id: 'ranker' });
  if (ranker.status !== 201) throw new Error(`adding the reranker: ${ranker.text}`);
  const headers = { authorization: `Bearer ${prepared.adminToken}`, 'content-type': 'application/json' };
  const sanadEmbed = async (): Promise<number> => {
    const t0 = performance.now();
    const res = await fetch(`${service.url}/v1/embeddings`, { method: 'POST', headers, body: JSON.stringify({ model: 'mid', input: TEXTS }) });
    if (!res.ok) throw new Error(`embeddings: ${res.status} ${await res.text()}`);
    await res.json();
    return TEXTS.length / ((performance.now() - t0) / 1000);
  };
  const sanadRank = async (): Promise<number> => {
    const t0 = performance.now();
    const body = JSON.stringify({ model: 'ranker', query: QUERY, documents: TEXTS });
    const res = await fetch(`${service.url}/v1/rerank`, { method: 'POST', headers, body });
    if (!res.ok) throw new Error(`rerank: ${res.status} ${await res.text()}`);
    await res.json();
    return TEXTS.length / ((performance.now() - t0) / 1000);
  };
  const sanadMessage = (): Promise<number> =>
    streamed(
      service.url,
      prepared.adminToken,
      '/v1/messages',
      { model: 'mid', max_tokens: tokens, stream: true, messages: [{ role: 'user', content: 'Hello' }] },
      'event: message_stop',
    );
  const e = samples();
  const m = samples();
  const k = samples();
  try {
    await rawEmbed.run();
    await sanadEmbed();
    await rawGenerate.run(tokens);
    await sanadMessage();
    await rawRank.run();
    await sanadRank();
    for (let i = 0; i < rounds; i++) {
      const swap = i % 2 === 1;
      await sample(e, rawEmbed.run, sanadEmbed, swap);
      await sample(m, async () => (await rawGenerate.run(tokens)).rate, sanadMessage, swap);
      await sample(k, rawRank.run, sanadRank, swap);
    }
  } finally {
    await service.stop();
    prepared.cleanup();
    await rawEmbed.close();
    await rawGenerate.close();
    await rawRank.close();
  }
  return { rounds, tokens, embeddings: summary(e), messages: summary(m), rerank: summary(k) };
}
