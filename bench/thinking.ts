// A reasoning model's stream: tokens/s of a thinking answer through Sanad (stream: true, every
// reasoning delta stored as a task event and sent) against node-llama-cpp driven directly with the
// same chat wrapper (Qwen's, resolved from the model as the engine does), the same model, thread
// count and sampling. The generated endless thinker at the mid-size model's width opens its thought
// and thinks to the token limit, so both sides spend every token inside a thought segment.
// Rounds alternate the order, so a slow spell of the machine falls on both sides.
import { performance } from 'node:perf_hooks';
import { getLlama, LlamaChat, LlamaLogLevel, resolveChatWrapper } from 'node-llama-cpp';
import { prepareDataDir } from '../test/harness/data-dir.js';
import { startServiceProcess } from '../test/harness/service-process.js';
import { median } from './stats.js';
import { pair, streamed } from './structured.js';

async function openRawThinker(modelPath: string): Promise<{ run: (tokens: number) => Promise<number>; close: () => Promise<void> }> {
  const llama = await getLlama({ gpu: false, build: 'never', maxThreads: 1, logLevel: LlamaLogLevel.error });
  const model = await llama.loadModel({ modelPath });
  const context = await model.createContext({ contextSize: { max: Math.min(model.trainContextSize || 8192, 8192) } });
  const chatWrapper = resolveChatWrapper(model);
  if (chatWrapper.wrapperName !== 'Qwen') throw new Error(`the thinker resolved to ${chatWrapper.wrapperName}, not Qwen`);
  const run = async (tokens: number): Promise<number> => {
    const chat = new LlamaChat({ contextSequence: context.getSequence(), chatWrapper });
    let produced = 0;
    let thought = 0;
    const t0 = performance.now();
    await chat.generateResponse(
      [
        { type: 'user', text: 'Hello' },
        { type: 'model', response: [] },
      ],
      {
        maxTokens: tokens,
        repeatPenalty: false,
        // Thought tokens come as segment chunks; onToken has the answer's only.
        onResponseChunk: (chunk) => {
          if (chunk.type === 'segment') thought += chunk.tokens.length;
        },
        onToken: (t) => {
          produced += t.length;
        },
      },
    );
    const seconds = (performance.now() - t0) / 1000;
    chat.dispose({ disposeSequence: true });
    if (thought === 0) throw new Error('the raw run did not think');
    return (produced + thought) / seconds;
  };
  const close = async (): Promise<void> => {
    await context.dispose();
    await model.dispose();
    await llama.dispose();
  };
  return { run, close };
}

export interface ThinkingBench {
  tokens: number;
  rounds: number;
  raw: number;
  sanad: number;
  pairedRatio: number;
}

export async function thinkingBench(modelPath: string, tokens: number, rounds: number): Promise<ThinkingBench> {
  const raw = await openRawThinker(modelPath);
  const prepared = await prepareDataDir();
  const service = await startServiceProcess(prepared.dataDir, prepared.adminToken);
  const added = await service.api.post('/admin/models', { path: modelPath, id: 'thinker' });
  if (added.status !== 201) throw new Error(`adding the thinking model: ${added.text}`);
  const body = { model: 'thinker', input: 'Hello', max_output_tokens: tokens, stream: true };
  const sanad = (): Promise<number> => streamed(service.url, prepared.adminToken, '/v1/responses', body, 'event: response.reasoning_text.delta');
  const out: Record<'raw' | 'sanad' | 'ratio', number[]> = { raw: [], sanad: [], ratio: [] };
  try {
    await raw.run(tokens);
    await sanad();
    for (let i = 0; i < rounds; i++) {
      const [r, s] = await pair(() => raw.run(tokens), sanad, i % 2 === 1);
      out.raw.push(r);
      out.sanad.push(s);
      out.ratio.push(s / r);
    }
  } finally {
    await service.stop();
    prepared.cleanup();
    await raw.close();
  }
  return { tokens, rounds, raw: median(out.raw), sanad: median(out.sanad), pairedRatio: median(out.ratio) };
}
