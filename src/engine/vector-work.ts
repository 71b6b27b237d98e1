// The work that makes numbers, not text: embeddings (`POST /v1/embeddings`) and relevance scores
// (`POST /v1/rerank`). Each runs on a context of its own kept beside the model's completion
// context (made on first use, disposed with the model); node-llama-cpp evaluates one input at a
// time on it, so requests take turns there.
import type { LlamaEmbeddingContext, LlamaRankingContext, Token } from 'node-llama-cpp';
import { firstLine } from './async-waits.js';
import type { Loaded } from './chat-history.js';
import { CompletionFailure, type EmbedRequest, type EmbedResult, type RankRequest, type RankResult } from './engine.js';
import type { ModelSlot } from './model-slot.js';

/** An input holds at most this many tokens (OpenAI's embedding limit), less when the model holds fewer. */
const VECTOR_CONTEXT_MAX = 8192;

/** Token ids of this model's vocabulary: what node-llama-cpp's Token type stands for. */
function isModelTokens(ids: readonly number[], vocabulary: number): ids is Token[] {
  return ids.every((id) => Number.isInteger(id) && id >= 0 && id < vocabulary);
}

function loadedOf(slot: ModelSlot): Loaded {
  if (!slot.loaded) throw new Error('internal: model slot started without a loaded model');
  return slot.loaded;
}

function sizeOf(loaded: Loaded): number {
  return Math.min(loaded.context.contextSize, VECTOR_CONTEXT_MAX);
}

/** The slot's context of one kind, made once; a failure is forgotten so the next request tries again. */
async function contextOf<T>(slot: ModelSlot, key: 'embedding' | 'ranking', make: () => Promise<T>, what: string): Promise<T> {
  try {
    return await make();
  } catch (err) {
    slot[key] = null;
    throw new Error(`Model ${slot.modelId} could not make ${what} context (${firstLine(err)}).`);
  }
}

export async function embedOn(slot: ModelSlot, request: EmbedRequest, signal: AbortSignal, threads: number | undefined): Promise<EmbedResult> {
  const loaded = loadedOf(slot);
  const size = sizeOf(loaded);
  slot.embedding ??= contextOf<LlamaEmbeddingContext>(
    slot,
    'embedding',
    () => loaded.model.createEmbeddingContext({ contextSize: size, ...(threads !== undefined ? { threads } : {}) }),
    'an embedding',
  );
  const context = await slot.embedding;
  const vocabulary = loaded.model.fileInfo.metadata.tokenizer?.ggml?.tokens?.length ?? 0;
  const vectors: number[][] = [];
  let tokens = 0;
  for (const [i, input] of request.inputs.entries()) {
    if (signal.aborted) throw new Error('The embeddings request was stopped.');
    let text: string | Token[];
    if (typeof input === 'string') text = input;
    else if (isModelTokens(input, vocabulary)) text = [...input];
    else
      throw new CompletionFailure(
        `Input ${i} holds a token id that model ${request.modelId} does not have (its ids are 0 to ${vocabulary - 1}).`,
        'invalid_input',
      );
    const length = context.calculateInputLength(text);
    if (length >= size)
      throw new CompletionFailure(
        `Input ${i} is ${length} tokens, more than model ${request.modelId} embeds at once (${size - 1}); split it.`,
        'context_length_exceeded',
      );
    tokens += length;
    vectors.push([...(await context.getEmbeddingFor(text)).vector]);
  }
  return { vectors, tokens };
}

export async function rankOn(slot: ModelSlot, request: RankRequest, signal: AbortSignal, threads: number | undefined): Promise<RankResult> {
  const loaded = loadedOf(slot);
  const size = sizeOf(loaded);
  slot.ranking ??= contextOf<LlamaRankingContext>(
    slot,
    'ranking',
    () => loaded.model.createRankingContext({ contextSize: size, ...(threads !== undefined ? { threads } : {}) }),
    'a ranking',
  );
  const context = await slot.ranking;
  // Tokenized once here (as node-llama-cpp would, without the leading space) for both the length
  // check and the evaluation; the query once for all documents.
  const tokenize = (text: string): Token[] => loaded.model.tokenize(text, false, 'trimLeadingSpace');
  const query = tokenize(request.query);
  const scores: number[] = [];
  let tokens = 0;
  for (const [i, text] of request.documents.entries()) {
    if (signal.aborted) throw new Error('The rerank request was stopped.');
    const document = tokenize(text);
    // The query and the document are read together, so each pair must fit.
    const length = context.calculateInputLength(query, document);
    if (length >= size)
      throw new CompletionFailure(
        `The query with document ${i} is ${length} tokens, more than model ${request.modelId} reads at once (${size - 1}); shorten or split the document.`,
        'context_length_exceeded',
      );
    tokens += length;
    scores.push(await context.rank(query, document));
  }
  return { scores, tokens };
}
