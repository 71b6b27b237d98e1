// Conversation state: continuing a 20-turn conversation with previous_response_id (Sanad reads the
// earlier turns from its store) against the same request with the whole history sent inline (the
// client carries it), in the same run, alternating round by round, end to end over HTTP. Both give
// the model the same prompt, so the difference is what reading the turns from the store costs.
import { performance } from 'node:perf_hooks';
import { field, str } from '../test/harness/api.js';
import { addDemoModel, prepareDataDir } from '../test/harness/data-dir.js';
import { startServiceProcess } from '../test/harness/service-process.js';
import { median } from './stats.js';

export interface ConversationBench {
  turns: number;
  rounds: number;
  /** Median ms of one create, each way. */
  previousMs: number;
  inlineMs: number;
  /** Median of each round's own ratio (previous / inline). */
  pairedRatio: number;
  /** Prompt tokens both ways (they must match: the same prompt). */
  inputTokens: { previous: number; inline: number };
}

export async function conversationBench(turns: number, rounds: number): Promise<ConversationBench> {
  const prepared = await prepareDataDir({ requests_per_minute_per_client: 1_000_000 });
  await addDemoModel(prepared.dataDir);
  const sp = await startServiceProcess(prepared.dataDir, prepared.adminToken);
  try {
    const history: unknown[] = [];
    let last: string | null = null;
    for (let i = 0; i < turns; i++) {
      const question = `Turn ${i}: tell me more.`;
      const r = await sp.api.post('/v1/responses', { model: 'demo', input: question, ...(last ? { previous_response_id: last } : {}) });
      if (r.status !== 200) throw new Error(`turn ${i}: ${r.status} ${r.text}`);
      last = str(r.body, 'id');
      history.push({ role: 'user', content: question }, { role: 'assistant', content: str(r.body, 'output', 0, 'content', 0, 'text') });
    }
    const previous = { model: 'demo', input: 'And now?', previous_response_id: last };
    const inline = { model: 'demo', input: [...history, { role: 'user', content: 'And now?' }] };
    const timed = async (body: unknown): Promise<{ ms: number; tokens: number }> => {
      const t0 = performance.now();
      const r = await sp.api.post('/v1/responses', body);
      const ms = performance.now() - t0;
      if (r.status !== 200) throw new Error(`${r.status} ${r.text}`);
      return { ms, tokens: Number(field(r.body, 'usage', 'input_tokens')) };
    };
    await timed(previous);
    await timed(inline);
    const p: number[] = [];
    const n: number[] = [];
    const ratios: number[] = [];
    let tokens = { previous: 0, inline: 0 };
    for (let round = 0; round < rounds; round++) {
      // The order swaps each round, so neither side always runs on a warmer machine.
      let a: { ms: number; tokens: number };
      let b: { ms: number; tokens: number };
      if (round % 2 === 0) {
        a = await timed(previous);
        b = await timed(inline);
      } else {
        b = await timed(inline);
        a = await timed(previous);
      }
      p.push(a.ms);
      n.push(b.ms);
      ratios.push(a.ms / b.ms);
      tokens = { previous: a.tokens, inline: b.tokens };
    }
    return { turns, rounds, previousMs: median(p), inlineMs: median(n), pairedRatio: median(ratios), inputTokens: tokens };
  } finally {
    await sp.kill();
  }
}
