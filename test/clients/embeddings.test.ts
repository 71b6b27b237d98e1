// Embeddings through the clients every RAG stack uses, unchanged and with their defaults, against a
// real `sanad serve`: the openai SDK (which asks for base64 and decodes it), LangChain's
// OpenAIEmbeddings, the AI SDK's embed and embedMany (both OpenAI providers) and LlamaIndex. Any
// registered model embeds (as in llama.cpp); the demo model's vectors are compared with themselves.
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import OpenAI, { BadRequestError, NotFoundError } from 'openai';
import { OpenAIEmbeddings } from '@langchain/openai';
import { createOpenAI } from '@ai-sdk/openai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { embed, embedMany } from 'ai';
import { OpenAIEmbedding } from '@llamaindex/openai';
import { DEMO, startClientService, type ClientService } from './client-kit.js';
import { embeddingModelPath } from '../fixtures/tiny-model.js';

const EMBEDDER = 'embedder';

let svc: ClientService;
let client: OpenAI;

before(async () => {
  svc = await startClientService();
  client = new OpenAI({ baseURL: svc.baseURL, apiKey: svc.token });
});

// The demo model has no pooling, so a vector is its last token's state (as llama.cpp gives for such a
// model): texts that end alike would embed alike, and these end differently.
const TEXTS = ['The cat sat on the mat', 'Backups are proven by drills!', 'قطة على الحصيرة'];

function near(a: readonly number[], b: readonly number[]): boolean {
  return a.length === b.length && a.every((v, i) => Math.abs(v - (b[i] ?? NaN)) < 1e-5);
}

test('openai SDK: the same text gives the same vector, others differ, a batch keeps its order; base64 decodes to the floats', async () => {
  const one = await client.embeddings.create({ model: DEMO, input: TEXTS[0] ?? '' });
  const again = await client.embeddings.create({ model: DEMO, input: TEXTS[0] ?? '' });
  const first = one.data[0]?.embedding ?? [];
  assert.ok(first.length > 0);
  assert.ok(first.every((v) => Number.isFinite(v)));
  assert.ok(near(first, again.data[0]?.embedding ?? []), 'the same text, the same vector');
  const batch = await client.embeddings.create({ model: DEMO, input: TEXTS });
  assert.deepEqual(
    batch.data.map((d) => d.index),
    [0, 1, 2],
  );
  assert.ok(near(batch.data[0]?.embedding ?? [], first), 'a batch keeps the order');
  assert.ok(!near(batch.data[1]?.embedding ?? [], first), 'different texts, different vectors');
  for (const [i, text] of TEXTS.entries()) {
    const alone = await client.embeddings.create({ model: DEMO, input: text });
    assert.ok(near(batch.data[i]?.embedding ?? [], alone.data[0]?.embedding ?? []), `input ${i} in a batch is itself alone`);
  }
  assert.equal(batch.model, DEMO);
  assert.equal(batch.object, 'list');
  assert.ok(batch.usage.prompt_tokens > 0 && batch.usage.total_tokens === batch.usage.prompt_tokens);
  // The SDK asks for base64 unless told; asked for floats, the numbers are the same.
  const floats = await client.embeddings.create({ model: DEMO, input: TEXTS[0] ?? '', encoding_format: 'float' });
  assert.ok(near(floats.data[0]?.embedding ?? [], first));
  // Token lists embed too (the model's own token ids).
  const tokens = await client.embeddings.create({
    model: DEMO,
    input: [
      [5, 6, 7],
      [8, 9],
    ],
  });
  assert.equal(tokens.data.length, 2);
});

test('refusals name the parameter: an unknown model, a dimension count the model does not make, a token it does not have', async () => {
  await assert.rejects(client.embeddings.create({ model: 'nope', input: 'x' }), NotFoundError);
  await assert.rejects(
    client.embeddings.create({ model: DEMO, input: 'x', dimensions: 3 }),
    (err: unknown) => err instanceof BadRequestError && err.param === 'dimensions' && /cannot shorten/.test(err.message),
  );
  await assert.rejects(
    client.embeddings.create({ model: DEMO, input: [[999_999]] }),
    (err: unknown) => err instanceof BadRequestError && err.param === 'input',
  );
  await assert.rejects(client.embeddings.create({ model: DEMO, input: '' }), (err: unknown) => err instanceof BadRequestError && err.param === 'input');
});

test('LangChain OpenAIEmbeddings: embedQuery and embedDocuments agree with the API', async () => {
  const lc = new OpenAIEmbeddings({ model: DEMO, apiKey: svc.token, configuration: { baseURL: svc.baseURL } });
  const query = await lc.embedQuery(TEXTS[1] ?? '');
  const docs = await lc.embedDocuments(TEXTS);
  assert.equal(docs.length, TEXTS.length);
  assert.ok(near(query, docs[1] ?? []));
  const direct = await client.embeddings.create({ model: DEMO, input: TEXTS[1] ?? '' });
  assert.ok(near(query, direct.data[0]?.embedding ?? []));
});

test('the AI SDK: embed and embedMany through @ai-sdk/openai and @ai-sdk/openai-compatible', async () => {
  const openai = createOpenAI({ baseURL: svc.baseURL, apiKey: svc.token });
  const compatible = createOpenAICompatible({ name: 'sanad', baseURL: svc.baseURL, apiKey: svc.token });
  const direct = await client.embeddings.create({ model: DEMO, input: TEXTS });
  for (const model of [openai.embedding(DEMO), compatible.embeddingModel(DEMO)]) {
    const one = await embed({ model, value: TEXTS[2] ?? '' });
    assert.ok(near(one.embedding, direct.data[2]?.embedding ?? []));
    const many = await embedMany({ model, values: TEXTS });
    assert.equal(many.embeddings.length, TEXTS.length);
    for (const [i, e] of many.embeddings.entries()) assert.ok(near(e, direct.data[i]?.embedding ?? []), `value ${i}`);
  }
});

test('LlamaIndex OpenAIEmbedding: text and query embeddings', async () => {
  const li = new OpenAIEmbedding({ model: DEMO, apiKey: svc.token, additionalSessionOptions: { baseURL: svc.baseURL } });
  const text = await li.getTextEmbedding(TEXTS[0] ?? '');
  const direct = await client.embeddings.create({ model: DEMO, input: TEXTS[0] ?? '' });
  assert.ok(near(text, direct.data[0]?.embedding ?? []));
  const batch = await li.getTextEmbeddings(TEXTS);
  assert.equal(batch.length, TEXTS.length);
});

test('an embedding model (its file declares pooling) is marked so, pools the whole text, and is refused for generation with a sentence', async () => {
  const added = await svc.service.api.post('/admin/models', { path: await embeddingModelPath(), id: EMBEDDER });
  assert.equal(added.status, 201, added.text);
  const models = await client.models.list();
  const kinds = new Map(models.data.map((m) => [m.id, 'kind' in m ? m.kind : undefined]));
  assert.equal(kinds.get(EMBEDDER), 'embedding');
  assert.equal(kinds.get(DEMO), 'generation');
  // Mean pooling: texts that end alike still embed apart, and the same text the same.
  const r = await client.embeddings.create({ model: EMBEDDER, input: ['The cat sat.', 'A dog ran.', 'The cat sat.'] });
  const [a, b, c] = r.data.map((d) => d.embedding);
  assert.ok(a && b && c);
  assert.ok(!near(a, b), 'different texts, different vectors');
  assert.ok(near(a, c), 'the same text, the same vector');
  await assert.rejects(
    client.responses.create({ model: EMBEDDER, input: 'Hello' }),
    (err: unknown) => err instanceof BadRequestError && err.code === 'model_not_generative' && err.param === 'model' && /embeddings/.test(err.message),
  );
  await assert.rejects(
    client.chat.completions.create({ model: EMBEDDER, messages: [{ role: 'user', content: 'Hello' }] }),
    (err: unknown) => err instanceof BadRequestError && err.code === 'model_not_generative',
  );
});
