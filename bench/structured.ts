// Structured output and Chat Completions, each against its baseline in the same run:
// - tokens/s of an answer generated under a JSON-schema grammar through Sanad (stream: true, every
//   event stored) against node-llama-cpp driven directly with the same grammar, model, thread
//   count and sampling (the endless tiny model writes one long JSON string, so both run to the
//   token limit);
// - a chat completion streamed against the same request on the Responses API, through the same
//   service: what the second API's framing costs.
// Rounds alternate the order, so a slow spell of the machine falls on both sides.
import { performance } from 'node:perf_hooks';
import { prepareDataDir } from '../test/harness/data-dir.js';
import { startServiceProcess } from '../test/harness/service-process.js';
import { median } from './stats.js';
import { openRaw } from './streaming.js';

const SCHEMA = { type: 'object', properties: { text: { type: 'string' } }, required: ['text'], additionalProperties: false } as const;
/** The same schema as zod 4 writes it (with its `$schema`), read through Sanad's two readings:
 *  the grammar it makes is the raw side's. */
const ZOD_SCHEMA = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  properties: { text: { type: 'string' } },
  required: ['text'],
  additionalProperties: false,
} as const;

/** Reads a streamed answer to its end; returns output tokens per second (from the usage it ends with). */
export async function streamed(url: string, token: string, path: string, body: unknown, end: string): Promise<number> {
  const t0 = performance.now();
  const res = await fetch(`${url}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  // The service ends the stream after its last event, so the whole body is the whole answer.
  const text = await res.text();
  if (!text.includes(end)) throw new Error(`${path}: the stream ended without ${end}`);
  const seconds = (performance.now() - t0) / 1000;
  const usage = [...text.matchAll(/"(?:output_tokens|completion_tokens)":(\d+)/g)].at(-1);
  if (!usage) throw new Error(`${path}: the stream ended without usage`);
  return Number(usage[1]) / seconds;
}

/** Runs both, in this order or swapped, and answers in this order. */
export async function pair(a: () => Promise<number>, b: () => Promise<number>, swap: boolean): Promise<[number, number]> {
  if (!swap) {
    const x = await a();
    return [x, await b()];
  }
  const y = await b();
  return [await a(), y];
}

export interface StructuredBench {
  tokens: number;
  rounds: number;
  grammar: { raw: number; sanad: number; pairedRatio: number };
  chat: { responses: number; chat: number; pairedRatio: number };
}

/** `model`: the endless tiny model, or (with its file) the mid-size one registered as `mid`. */
export async function structuredBench(tokens: number, rounds: number, midSizePath?: string): Promise<StructuredBench> {
  const grammarRaw = await openRaw(SCHEMA, midSizePath);
  const raw = { run: async (tokens: number): Promise<number> => (await grammarRaw.run(tokens)).rate, close: grammarRaw.close };
  const prepared = await prepareDataDir();
  const service = await startServiceProcess(prepared.dataDir, prepared.adminToken);
  const token = prepared.adminToken;
  const model = midSizePath ? 'mid' : 'tiny';
  if (midSizePath) {
    const added = await service.api.post('/admin/models', { path: midSizePath, id: 'mid' });
    if (added.status !== 201) throw new Error(`adding the mid-size model: ${added.text}`);
  }
  const format = { format: { type: 'json_schema', name: 'answer', schema: ZOD_SCHEMA } };
  const underGrammar = (): Promise<number> =>
    streamed(
      service.url,
      token,
      '/v1/responses',
      { model, input: 'Hello', max_output_tokens: tokens, stream: true, text: format },
      'event: response.incomplete',
    );
  const responsesPlain = (): Promise<number> =>
    streamed(service.url, token, '/v1/responses', { model, input: 'Hello', max_output_tokens: tokens, stream: true }, 'event: response.incomplete');
  const chatPlain = (): Promise<number> =>
    streamed(
      service.url,
      token,
      '/v1/chat/completions',
      { model, messages: [{ role: 'user', content: 'Hello' }], max_tokens: tokens, stream: true, stream_options: { include_usage: true } },
      'data: [DONE]',
    );
  const g: Record<'raw' | 'sanad' | 'ratio', number[]> = { raw: [], sanad: [], ratio: [] };
  const c: Record<'responses' | 'chat' | 'ratio', number[]> = { responses: [], chat: [], ratio: [] };
  try {
    await raw.run(tokens);
    await underGrammar();
    await responsesPlain();
    await chatPlain();
    for (let i = 0; i < rounds; i++) {
      const swap = i % 2 === 1;
      const [r, s] = await pair(() => raw.run(tokens), underGrammar, swap);
      g.raw.push(r);
      g.sanad.push(s);
      g.ratio.push(s / r);
      const [a, b] = await pair(responsesPlain, chatPlain, swap);
      c.responses.push(a);
      c.chat.push(b);
      c.ratio.push(b / a);
    }
  } finally {
    await service.stop();
    prepared.cleanup();
    await raw.close();
  }
  return {
    tokens,
    rounds,
    grammar: { raw: median(g.raw), sanad: median(g.sanad), pairedRatio: median(g.ratio) },
    chat: { responses: median(c.responses), chat: median(c.chat), pairedRatio: median(c.ratio) },
  };
}
