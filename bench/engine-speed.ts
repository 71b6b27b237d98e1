// Conversations at the engine's speed (issue 50), each against raw node-llama-cpp in the same run
// on the generated mid-size model (~413 MB, embedding 1024, 8 layers), one thread each side:
// - conversation turn: time to first text of turn 2 after a ~1,500-token turn 1, against raw
//   node-llama-cpp continuing the kept sequence (and, for scale, a cold start of the same turn);
// - four clients: the aggregate tokens/s of 4 concurrent streams with default settings, against 4
//   sequences on one context, and each stream's first token against a stream alone;
// - two models: alternating requests between two models that fit together, counting reloads;
// - memory: the service's RSS with the model loaded and 4 sequences used, against a raw process
//   holding the same context.
import { spawn } from 'node:child_process';
import { linkSync, readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { GeneralChatWrapper, getLlama, LlamaChat, LlamaLogLevel, type ChatHistoryItem, type LlamaContext } from 'node-llama-cpp';
import { field, num, str } from '../test/harness/api.js';
import { prepareDataDir, tempDir } from '../test/harness/data-dir.js';
import { startServiceProcess, type ServiceProcess } from '../test/harness/service-process.js';
import { readSse } from '../test/harness/sse.js';
import { median } from './stats.js';

/** About `n` tokens of text (one printable byte is one token of the generated models). */
function longText(n: number, salt: string): string {
  let text = '';
  for (let i = 0; text.length < n; i++) text += `${salt} line ${i} of the story. `;
  return text.slice(0, n);
}

const CONTEXT = 8192;
const SEQUENCES = 4;

async function openRawContext(modelPath: string): Promise<{ context: LlamaContext; close: () => Promise<void> }> {
  const llama = await getLlama({ gpu: false, build: 'never', maxThreads: 1, logLevel: LlamaLogLevel.error });
  const model = await llama.loadModel({ modelPath });
  const context = await model.createContext({ contextSize: CONTEXT, sequences: SEQUENCES });
  return {
    context,
    close: async () => {
      await context.dispose();
      await model.dispose();
      await llama.dispose();
    },
  };
}

/** Generates on a chat; answers the ms to the first token, the tokens and the text. */
async function rawTurn(chat: LlamaChat, history: ChatHistoryItem[], maxTokens: number): Promise<{ firstMs: number; tokens: number; text: string; ms: number }> {
  const t0 = performance.now();
  let first: number | null = null;
  let tokens = 0;
  const r = await chat.generateResponse(history, {
    maxTokens,
    repeatPenalty: false,
    onToken: (t) => {
      first ??= performance.now() - t0;
      tokens += t.length;
    },
  });
  return { firstMs: first ?? NaN, tokens, text: r.response, ms: performance.now() - t0 };
}

/** One streamed response through the service: ms to its first text, its output tokens, its end. */
async function serviceStream(service: ServiceProcess, body: Record<string, unknown>): Promise<{ firstMs: number; tokens: number; endMs: number; id: string }> {
  const t0 = performance.now();
  let first: number | null = null;
  const { frames } = await readSse(
    `${service.url}/v1/responses`,
    {
      method: 'POST',
      headers: { authorization: `Bearer ${service.api.token ?? ''}`, 'content-type': 'application/json' },
      body: JSON.stringify({ ...body, stream: true }),
    },
    (f) => {
      if (f.event === 'response.output_text.delta') first ??= performance.now() - t0;
      return f.event === 'response.completed' || f.event === 'response.incomplete' || f.event === 'response.failed';
    },
    600_000,
  );
  const endMs = performance.now() - t0;
  const last = frames.at(-1);
  if (!last || last.event === 'response.failed') throw new Error(`the stream failed: ${JSON.stringify(last?.data)}`);
  const response = field(last.data, 'response');
  return { firstMs: first ?? NaN, tokens: num(response, 'usage', 'output_tokens'), endMs, id: str(response, 'id') };
}

export interface EngineSpeedBench {
  conversation: { rounds: number; turn1Tokens: number; sanadMs: number; rawWarmMs: number; rawColdMs: number; cachedTokens: number };
  fourClients: {
    tokens: number;
    sanadTokPerS: number;
    rawTokPerS: number;
    sanadAloneFirstMs: number;
    sanadFirstMs: number[];
    rawAloneFirstMs: number;
    rawFirstMs: number[];
  };
  twoModels: { requests: number; reloads: number; medianMs: number };
  memory: { sanadRssMiB: number; rawRssMiB: number };
}

async function rawConversation(context: LlamaContext, rounds: number): Promise<{ warm: number[]; cold: number[]; turn1Tokens: number }> {
  const warm: number[] = [];
  const cold: number[] = [];
  let turn1Tokens = 0;
  for (let round = 0; round < rounds; round++) {
    const long = longText(1500, `raw${round}`);
    const sequence = context.getSequence();
    const chat = new LlamaChat({ contextSequence: sequence, chatWrapper: new GeneralChatWrapper() });
    const turn1: ChatHistoryItem[] = [
      { type: 'user', text: long },
      { type: 'model', response: [] },
    ];
    const one = await rawTurn(chat, turn1, 32);
    turn1Tokens = sequence.contextTokens.length;
    const turn2: ChatHistoryItem[] = [
      { type: 'user', text: long },
      { type: 'model', response: [one.text] },
      { type: 'user', text: 'And then what happened?' },
      { type: 'model', response: [] },
    ];
    warm.push((await rawTurn(chat, turn2, 8)).firstMs);
    chat.dispose({ disposeSequence: false });
    // The same turn on a cleared sequence: what every turn cost when nothing was kept.
    await sequence.clearHistory();
    const fresh = new LlamaChat({ contextSequence: sequence, chatWrapper: new GeneralChatWrapper() });
    cold.push((await rawTurn(fresh, turn2, 8)).firstMs);
    fresh.dispose({ disposeSequence: true });
  }
  return { warm, cold, turn1Tokens };
}

async function rawFourClients(context: LlamaContext, tokens: number): Promise<{ tokPerS: number; firstMs: number[]; aloneFirstMs: number }> {
  const history = (i: number): ChatHistoryItem[] => [
    { type: 'user', text: `Hello from client ${i}` },
    { type: 'model', response: [] },
  ];
  const alone = new LlamaChat({ contextSequence: context.getSequence(), chatWrapper: new GeneralChatWrapper() });
  const aloneFirstMs = (await rawTurn(alone, history(9), 16)).firstMs;
  alone.dispose({ disposeSequence: true });
  const chats = Array.from({ length: SEQUENCES }, () => new LlamaChat({ contextSequence: context.getSequence(), chatWrapper: new GeneralChatWrapper() }));
  const t0 = performance.now();
  const runs = await Promise.all(chats.map((chat, i) => rawTurn(chat, history(i), tokens)));
  const seconds = (performance.now() - t0) / 1000;
  for (const chat of chats) chat.dispose({ disposeSequence: true });
  return { tokPerS: runs.reduce((n, r) => n + r.tokens, 0) / seconds, firstMs: runs.map((r) => r.firstMs), aloneFirstMs };
}

/** A raw process holding the model with the same context, after 4 sequences generated: its RSS. */
function rawRssMiB(modelPath: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const script = new URL('./raw-rss.js', import.meta.url).pathname;
    const child = spawn(process.execPath, [script, modelPath, String(CONTEXT), String(SEQUENCES)], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.on('error', reject);
    child.on('exit', () => resolve(Number(out) / 1048576));
  });
}

function processRssMiB(pid: number | undefined): number {
  const status = readFileSync(`/proc/${pid ?? 0}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? NaN) / 1024;
}

export async function engineSpeedBench(modelPath: string, rounds: number, tokens: number): Promise<EngineSpeedBench> {
  // Raw first, alone on the machine, then closed before the service starts.
  const raw = await openRawContext(modelPath);
  const rawConv = await rawConversation(raw.context, rounds);
  const rawFour = await rawFourClients(raw.context, tokens);
  await raw.close();

  const prepared = await prepareDataDir({ requests_per_minute_per_client: 1_000_000 });
  const service = await startServiceProcess(prepared.dataDir, prepared.adminToken);
  try {
    const twin = `${tempDir('sanad-bench-twin-')}/twin.gguf`;
    linkSync(modelPath, twin);
    for (const [path, id] of [
      [modelPath, 'mid'],
      [twin, 'twin'],
    ] as const) {
      const added = await service.api.post('/admin/models', { path, id });
      if (added.status !== 201) throw new Error(`adding ${id}: ${added.text}`);
    }
    // Conversation turns: turn 1 plain, turn 2 streamed by previous_response_id.
    const sanadTurn2: number[] = [];
    let cachedTokens = 0;
    await serviceStream(service, { model: 'mid', input: 'warm up', max_output_tokens: 4 });
    for (let round = 0; round < rounds; round++) {
      const one = await service.api.post('/v1/responses', { model: 'mid', input: longText(1500, `sanad${round}`), max_output_tokens: 32 });
      if (one.status !== 200) throw new Error(`turn 1: ${one.text}`);
      const two = await serviceStream(service, {
        model: 'mid',
        previous_response_id: str(one.body, 'id'),
        input: 'And then what happened?',
        max_output_tokens: 8,
      });
      sanadTurn2.push(two.firstMs);
      const usage = field((await service.api.get(`/v1/responses/${two.id}`)).body, 'usage');
      cachedTokens = num(usage, 'input_tokens_details', 'cached_tokens');
    }

    // Four clients at once, default settings (4 generations at once).
    const alone = await serviceStream(service, { model: 'mid', input: 'Hello from client 9', max_output_tokens: 16 });
    const t0 = performance.now();
    const four = await Promise.all(
      Array.from({ length: SEQUENCES }, (_, i) => serviceStream(service, { model: 'mid', input: `Hello from client ${i}`, max_output_tokens: tokens })),
    );
    const fourSeconds = (performance.now() - t0) / 1000;
    const sanadRss = processRssMiB(service.child.pid);

    // Two models alternating: each load shows as a new loaded_at (or a slow request).
    const loadedAt = async (): Promise<string> => {
      const data = field((await service.api.get('/v1/models')).body, 'data');
      return JSON.stringify(Array.isArray(data) ? data.map((m) => [str(m, 'id'), field(m, 'loaded') === null ? null : num(m, 'loaded', 'loaded_at')]) : null);
    };
    const times: number[] = [];
    let seen = '';
    let reloads = 0;
    for (let i = 0; i < 8; i++) {
      const t = performance.now();
      const r = await service.api.post('/v1/responses', { model: i % 2 === 0 ? 'mid' : 'twin', input: 'hi', max_output_tokens: 4 });
      if (r.status !== 200) throw new Error(`two models: ${r.text}`);
      times.push(performance.now() - t);
      const now = await loadedAt();
      if (i >= 2 && now !== seen) reloads++;
      seen = now;
    }
    return {
      conversation: {
        rounds,
        turn1Tokens: rawConv.turn1Tokens,
        sanadMs: median(sanadTurn2),
        rawWarmMs: median(rawConv.warm),
        rawColdMs: median(rawConv.cold),
        cachedTokens,
      },
      fourClients: {
        tokens,
        sanadTokPerS: four.reduce((n, r) => n + r.tokens, 0) / fourSeconds,
        rawTokPerS: rawFour.tokPerS,
        sanadAloneFirstMs: alone.firstMs,
        sanadFirstMs: four.map((r) => r.firstMs),
        rawAloneFirstMs: rawFour.aloneFirstMs,
        rawFirstMs: rawFour.firstMs,
      },
      twoModels: { requests: times.length, reloads, medianMs: median(times.slice(2)) },
      memory: { sanadRssMiB: sanadRss, rawRssMiB: await rawRssMiB(modelPath) },
    };
  } finally {
    await service.stop();
  }
}
