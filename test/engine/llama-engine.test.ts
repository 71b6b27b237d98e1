import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import type { ChatMessage, EngineOptions, GenerateRequest, GenerateResult } from '../../src/engine/engine.js';
import { LlamaEngine, ModelLoadError } from '../../src/engine/llama-engine.js';
import { scratchPath, tinyModelPath } from '../fixtures/tiny-model.js';

const PRINTABLE = /^[\x21-\x7e]*$/;
const MESSAGES: ChatMessage[] = [
  { role: 'system', content: 'Be brief.' },
  { role: 'user', content: 'Say something.' },
];

function engine(options: Partial<EngineOptions> = {}): LlamaEngine {
  return new LlamaEngine({ concurrency: 1, threads: 1, gpu: false, idleUnloadMs: 60_000, ...options });
}

async function request(overrides: Partial<GenerateRequest> = {}): Promise<GenerateRequest> {
  return {
    modelId: 'tiny',
    modelPath: await tinyModelPath(),
    messages: MESSAGES,
    maxTokens: 32,
    temperature: 0,
    signal: new AbortController().signal,
    onText: () => undefined,
    ...overrides,
  };
}

/** Runs a generation and also returns the deltas onText received. */
async function generateCollecting(e: LlamaEngine, req: GenerateRequest): Promise<GenerateResult & { deltas: string[] }> {
  const deltas: string[] = [];
  const result = await e.generate({
    ...req,
    onText: (d) => {
      deltas.push(d);
      req.onText(d);
    },
  });
  return { ...result, deltas };
}

test('loads the tiny model and generates exactly maxTokens printable tokens', async (t) => {
  const e = engine();
  t.after(() => e.close());
  assert.equal(e.loadedModel(), null);
  await e.load('tiny', await tinyModelPath());
  assert.equal(e.loadedModel(), 'tiny');

  const r = await generateCollecting(e, await request({ maxTokens: 40 }));
  assert.equal(r.stopReason, 'max_tokens');
  assert.equal(r.outputTokens, 40);
  // Each token of this model is one visible ASCII byte.
  assert.equal(r.text.length, 40);
  assert.match(r.text, PRINTABLE);
  assert.ok(r.deltas.length > 1, 'text arrives in several chunks');
  assert.equal(r.deltas.join(''), r.text);
  assert.ok(r.inputTokens > MESSAGES.map((m) => m.content).join('').length, `inputTokens ${r.inputTokens}`);
  assert.equal(e.countTokens('tiny', 'abc!'), 4);
});

test('sampling at temperature 1 stays printable and runs to the limit', async (t) => {
  const e = engine();
  t.after(() => e.close());
  const r = await generateCollecting(e, await request({ maxTokens: 400, temperature: 1, topP: 0.95 }));
  assert.equal(r.stopReason, 'max_tokens');
  assert.equal(r.outputTokens, 400);
  assert.match(r.text, PRINTABLE);
  assert.equal(r.deltas.join(''), r.text);
});

test('abort mid-generation resolves with the partial text', async (t) => {
  const e = engine();
  t.after(() => e.close());
  const controller = new AbortController();
  let seen = '';
  const r = await e.generate(
    await request({
      maxTokens: 1500,
      temperature: 0.8,
      signal: controller.signal,
      onText: (d) => {
        seen += d;
        if (seen.length >= 20) controller.abort();
      },
    }),
  );
  assert.equal(r.stopReason, 'abort');
  assert.ok(r.text.length >= 20 && r.text.length < 1500, `partial length ${r.text.length}`);
  assert.equal(r.text, seen);
  assert.equal(r.outputTokens, r.text.length);
});

test('a signal aborted before the start resolves with no text', async (t) => {
  const e = engine();
  t.after(() => e.close());
  const r = await e.generate(await request({ signal: AbortSignal.abort() }));
  assert.deepEqual({ text: r.text, stopReason: r.stopReason, outputTokens: r.outputTokens }, { text: '', stopReason: 'abort', outputTokens: 0 });
});

test('a continuation is continued, not repeated, and counted once in the prompt', async (t) => {
  const e = engine();
  t.after(() => e.close());
  // Greedy decoding: a run that starts after the first k characters must produce the rest of a
  // full run (same process, same CPU), without the continuation in `text`.
  const full = await e.generate(await request({ maxTokens: 48 }));
  assert.equal(full.text.length, 48);
  const k = [16, 13, 11, 7].find((n) => full.text.slice(0, 32) !== full.text.slice(n, n + 32));
  assert.ok(k !== undefined, `greedy output ${full.text} repeats from its start; use another seed`);
  const continuation = full.text.slice(0, k);

  const resumed = await generateCollecting(e, await request({ maxTokens: 48 - k, continuation }));
  assert.equal(resumed.stopReason, 'max_tokens');
  assert.equal(resumed.text, full.text.slice(k));
  assert.ok(!resumed.text.startsWith(continuation));
  assert.equal(resumed.deltas.join(''), resumed.text);
  assert.equal(resumed.outputTokens, 48 - k);
  assert.equal(resumed.inputTokens, full.inputTokens + e.countTokens('tiny', continuation));
});

test('two generations run at once with concurrency 2', async (t) => {
  const e = engine({ concurrency: 2 });
  t.after(() => e.close());
  let firstChunkOfB = -1;
  let lengthOfA = 0;
  const [a, b] = await Promise.all([
    e.generate(await request({ maxTokens: 300, temperature: 0.8, onText: (d) => (lengthOfA += d.length) })),
    e.generate(
      await request({
        maxTokens: 300,
        temperature: 0.8,
        onText: () => {
          if (firstChunkOfB < 0) firstChunkOfB = lengthOfA;
        },
      }),
    ),
  ]);
  assert.equal(a.stopReason, 'max_tokens');
  assert.equal(b.stopReason, 'max_tokens');
  assert.equal(a.outputTokens + b.outputTokens, 600);
  assert.ok(firstChunkOfB < 300, `B started only after A had ${firstChunkOfB} chars: not concurrent`);
});

test('with concurrency 1 a second generation waits for the first', async (t) => {
  const e = engine({ concurrency: 1 });
  t.after(() => e.close());
  let lengthOfA = 0;
  let aAtFirstChunkOfB = -1;
  const [a, b] = await Promise.all([
    e.generate(await request({ maxTokens: 200, onText: (d) => (lengthOfA += d.length) })),
    e.generate(
      await request({
        maxTokens: 200,
        onText: () => {
          if (aAtFirstChunkOfB < 0) aAtFirstChunkOfB = lengthOfA;
        },
      }),
    ),
  ]);
  assert.equal(a.stopReason, 'max_tokens');
  assert.equal(b.stopReason, 'max_tokens');
  assert.equal(aAtFirstChunkOfB, 200);
  // The sequence was cleared between them: same prompt, greedy, same text.
  assert.equal(b.text, a.text);
});

test('the model is unloaded after idleUnloadMs without work, and reloads on demand', async (t) => {
  const e = engine({ idleUnloadMs: 400 });
  t.after(() => e.close());
  await e.generate(await request({ maxTokens: 5 }));
  const idleSince = performance.now();
  assert.equal(e.loadedModel(), 'tiny');
  while (e.loadedModel() !== null && performance.now() - idleSince < 5000) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const idleFor = performance.now() - idleSince;
  assert.equal(e.loadedModel(), null, 'never unloaded');
  // The timer starts just before generate() resolves, hence a little slack below 400 ms.
  assert.ok(idleFor >= 350, `unloaded after ${idleFor} ms, before idleUnloadMs`);
  assert.throws(() => e.countTokens('tiny', 'abc'), /not loaded/);
  const again = await e.generate(await request({ maxTokens: 5 }));
  assert.equal(again.outputTokens, 5);
  assert.equal(e.loadedModel(), 'tiny');
});

test('a garbage file rejects load and generate with one clear sentence', async (t) => {
  const e = engine();
  t.after(() => e.close());
  const path = await scratchPath('garbage.gguf');
  await writeFile(path, Buffer.from('this is not a model at all, just some bytes\n'.repeat(50)));
  const check = (err: unknown): boolean => {
    assert.ok(err instanceof ModelLoadError, String(err));
    assert.equal(err.message, `Could not load model junk: ${path} is not a GGUF model file (it does not start with "GGUF").`);
    return true;
  };
  await assert.rejects(e.load('junk', path), check);
  await assert.rejects(e.generate(await request({ modelId: 'junk', modelPath: path })), check);
  assert.equal(e.loadedModel(), null);
});

test('a GGUF whose tensors are cut off is rejected without native noise in the message', async (t) => {
  const e = engine();
  t.after(() => e.close());
  const full = await readFile(await tinyModelPath());
  const path = await scratchPath('cut-tensors.gguf');
  await writeFile(path, full.subarray(0, full.length - 100_000));
  await assert.rejects(e.load('cut', path), (err: unknown) => {
    assert.ok(err instanceof ModelLoadError, String(err));
    assert.match(err.message, /^Could not load model cut: llama\.cpp rejected .*cut-tensors\.gguf \(.+\)\.$/);
    assert.ok(!err.message.includes('\n'), err.message);
    return true;
  });
  // The engine still works afterwards.
  assert.equal((await e.generate(await request({ maxTokens: 3 }))).outputTokens, 3);
});

test('with memory for one model, loading another waits for running generations, then replaces the first', async (t) => {
  const e = engine({ memoryBudgetBytes: 1 });
  t.after(() => e.close());
  const other = await tinyModelPath(2);
  let started: () => void = () => undefined;
  const firstText = new Promise<void>((resolve) => (started = resolve));
  const running = e.generate(await request({ maxTokens: 300, temperature: 0.8, onText: () => started() }));
  await firstText;
  const [r] = await Promise.all([running, e.load('other', other)]);
  assert.equal(r.stopReason, 'max_tokens');
  assert.equal(r.outputTokens, 300);
  assert.equal(e.loadedModel(), 'other');
  assert.throws(() => e.countTokens('tiny', 'abc'), /not loaded/);
});

test('concurrent loads of one model share the work', async (t) => {
  const e = engine();
  t.after(() => e.close());
  const path = await tinyModelPath();
  await Promise.all([e.load('tiny', path), e.load('tiny', path), e.generate(await request({ maxTokens: 3 }))]);
  assert.equal(e.loadedModel(), 'tiny');
});

test('close aborts running work, is safe twice, and refuses new work', async () => {
  const e = engine();
  const running = e.generate(await request({ maxTokens: 1500, temperature: 0.8 }));
  await new Promise((resolve) => setTimeout(resolve, 50));
  await Promise.all([e.close(), e.close()]);
  const r = await running;
  assert.equal(r.stopReason, 'abort');
  assert.ok(r.outputTokens < 1500);
  assert.equal(e.loadedModel(), null);
  await assert.rejects(e.generate(await request()), /engine is closed/);
  await e.close();
});
