// POST /v1/rerank against a real `sanad serve`, in the shape llama-server, Jina and Cohere share,
// with a generated reranker (a qwen3 model with rank pooling and a "yes"/"no" head, as
// node-llama-cpp sees Qwen3-Reranker) whose weights score how many of the query's words a document
// holds. No client package is in the list for this door; the requests are what those clients send.
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { DEMO, startClientService, type ClientService } from './client-kit.js';
import { rerankerModelPath } from '../fixtures/tiny-model.js';

const RERANKER = 'reranker';

let svc: ClientService;

before(async () => {
  svc = await startClientService();
  const added = await svc.service.api.post('/admin/models', { path: await rerankerModelPath(), id: RERANKER });
  assert.equal(added.status, 201, added.text);
});

interface RerankAnswer {
  id: string;
  object: string;
  model: string;
  results: Array<{ index: number; relevance_score: number; document?: { text: string } }>;
  usage: { prompt_tokens: number; total_tokens: number };
}

interface ErrorAnswer {
  error: { code: string; param: string | null; message: string };
}

async function post(path: string, body: unknown, token: string | null = svc.token): Promise<{ status: number; json: unknown }> {
  const res = await fetch(`${svc.baseURL}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  return { status: res.status, json: await res.json() };
}

function isRerank(value: unknown): value is RerankAnswer {
  return typeof value === 'object' && value !== null && 'results' in value && Array.isArray(value.results);
}

function isError(value: unknown): value is ErrorAnswer {
  return typeof value === 'object' && value !== null && 'error' in value && typeof value.error === 'object';
}

async function rerank(body: Record<string, unknown>): Promise<RerankAnswer> {
  const { status, json } = await post('/rerank', { model: RERANKER, ...body });
  assert.equal(status, 200, JSON.stringify(json));
  assert.ok(isRerank(json));
  return json;
}

async function refused(path: string, body: unknown, status: number): Promise<ErrorAnswer['error']> {
  const answer = await post(path, body);
  assert.equal(answer.status, status, JSON.stringify(answer.json));
  assert.ok(isError(answer.json), JSON.stringify(answer.json));
  return answer.json.error;
}

const DOCUMENTS = [
  'The weather in Paris is rain and more rain.',
  'How to restore a backup from an external disk.',
  'My cats sleep on the bed all winter.',
  'A dog eats its food in the garden.',
];

test('a reranker is marked so in /v1/models, and the matching document comes first, scored 0 to 1', async () => {
  const models = await fetch(`${svc.baseURL}/models`, { headers: { authorization: `Bearer ${svc.token}` } });
  const list: unknown = await models.json();
  assert.ok(typeof list === 'object' && list !== null && 'data' in list && Array.isArray(list.data));
  const kinds = new Map(list.data.map((m: { id: string; kind: string }) => [m.id, m.kind]));
  assert.equal(kinds.get(RERANKER), 'rerank');

  const cats = await rerank({ query: 'Where do cats sleep in winter?', documents: DOCUMENTS });
  assert.equal(cats.object, 'list');
  assert.equal(cats.model, RERANKER);
  assert.match(cats.id, /^rerank_/);
  assert.equal(cats.results[0]?.index, 2, JSON.stringify(cats.results));
  assert.deepEqual(cats.results.map((r) => r.index).sort(), [0, 1, 2, 3], 'every document, once');
  for (const [i, r] of cats.results.entries()) {
    assert.ok(r.relevance_score > 0 && r.relevance_score < 1, `score ${r.relevance_score}`);
    if (i > 0) assert.ok(r.relevance_score <= (cats.results[i - 1]?.relevance_score ?? 1), 'most relevant first');
    assert.equal(r.document, undefined, 'no text unless asked');
  }
  assert.ok((cats.results[0]?.relevance_score ?? 0) > 0.5 && (cats.results[3]?.relevance_score ?? 1) < 0.5, JSON.stringify(cats.results));
  assert.ok(cats.usage.prompt_tokens > 0 && cats.usage.total_tokens === cats.usage.prompt_tokens);

  // Another query, another winner: the scores are the query's, not the documents' own.
  const backup = await rerank({ query: 'restore my backup', documents: DOCUMENTS });
  assert.equal(backup.results[0]?.index, 1, JSON.stringify(backup.results));
});

test('top_n, return_documents and Jina-style document objects', async () => {
  const top = await rerank({
    query: 'a dog in the garden',
    documents: DOCUMENTS.map((text) => ({ text })),
    top_n: 2,
    return_documents: true,
  });
  assert.equal(top.results.length, 2);
  assert.equal(top.results[0]?.index, 3);
  assert.equal(top.results[0]?.document?.text, DOCUMENTS[3]);
  // top_n beyond the documents returns them all.
  const all = await rerank({ query: 'a dog', documents: DOCUMENTS, top_n: 99 });
  assert.equal(all.results.length, DOCUMENTS.length);
});

test('refusals: a model that is not a reranker, an unknown one, empty or unknown fields, and a reranker asked to write or embed', async () => {
  const notReranker = await refused('/rerank', { model: DEMO, query: 'q', documents: ['d'] }, 400);
  assert.equal(notReranker.code, 'model_not_reranker');
  assert.equal(notReranker.param, 'model');
  assert.match(notReranker.message, /not a reranker/);
  assert.equal((await refused('/rerank', { model: 'nope', query: 'q', documents: ['d'] }, 404)).param, 'model');
  assert.equal((await refused('/rerank', { model: RERANKER, query: 'q', documents: [] }, 400)).param, 'documents');
  assert.equal((await refused('/rerank', { model: RERANKER, query: '', documents: ['d'] }, 400)).param, 'query');
  assert.equal((await refused('/rerank', { model: RERANKER, query: 'q', documents: ['d'], top_n: 0 }, 400)).param, 'top_n');
  assert.match((await refused('/rerank', { model: RERANKER, query: 'q', documents: ['d'], rank_fields: ['x'] }, 400)).message, /rank_fields/);
  const write = await refused('/responses', { model: RERANKER, input: 'Hello' }, 400);
  assert.equal(write.code, 'model_not_generative');
  assert.match(write.message, /rerank/);
  const embed = await refused('/embeddings', { model: RERANKER, input: 'Hello' }, 400);
  assert.equal(embed.code, 'model_is_reranker');
  const anonymous = await post('/rerank', { model: RERANKER, query: 'q', documents: ['d'] }, null);
  assert.equal(anonymous.status, 401);
});
