// POST /v1/embeddings: OpenAI's Embeddings API on any registered model (as in llama.cpp), on an
// embedding context kept beside the model's generation context. Counted and rate limited like
// every request; nothing is stored (a vector is made again from its text).
import type { FastifyInstance } from 'fastify';
import { createEmbeddingBody, type EmbeddingList } from '../../contract/embeddings.js';
import { CompletionFailure } from '../../engine/engine.js';
import { ApiError, badRequest } from '../errors.js';
import { withModelLoaded } from '../model-load-error.js';
import { parseBody } from '../validate.js';
import type { RouteKit } from './route-kit.js';
import { secured } from './route-kit.js';

/** A vector as OpenAI's base64: its float32 values, little-endian, in base64. */
function base64Of(vector: readonly number[]): string {
  const bytes = Buffer.alloc(vector.length * 4);
  vector.forEach((v, i) => bytes.writeFloatLE(v, i * 4));
  return bytes.toString('base64');
}

/** The inputs as a list: one text, texts, one token list, or token lists. */
function inputsOf(input: string | string[] | number[] | number[][]): Array<string | number[]> {
  if (typeof input === 'string') return [input];
  const first = input[0];
  if (typeof first === 'number') return [input.filter((v): v is number => typeof v === 'number')];
  return input.filter((v): v is string | number[] => typeof v !== 'number');
}

export function registerEmbeddingRoutes(app: FastifyInstance, kit: RouteKit): void {
  const { ctx } = kit;
  app.post('/v1/embeddings', { preHandler: secured(kit, 'responses:write') }, async (req, reply): Promise<EmbeddingList> => {
    const body = parseBody(createEmbeddingBody, req.body);
    if (ctx.models.kindOf(body.model) === 'rerank')
      throw new ApiError(
        'model_is_reranker',
        `Model ${body.model} is a reranker: it scores documents against a query and makes no vectors. Use it with POST /v1/rerank, or choose an embedding model.`,
      );
    const stop = new AbortController();
    // A client that hangs up before its answer stops the work between inputs.
    reply.raw.once('close', () => {
      if (!reply.raw.writableFinished) stop.abort();
    });
    let result;
    try {
      result = await withModelLoaded(body.model, () => ctx.inMemory.embed(body.model, inputsOf(body.input), stop.signal));
    } catch (err) {
      if (err instanceof CompletionFailure && err.code === 'context_length_exceeded') throw new ApiError('context_length_exceeded', err.message);
      if (err instanceof CompletionFailure) throw badRequest(err.message, 'input');
      throw err;
    }
    const size = result.vectors[0]?.length ?? 0;
    if (body.dimensions !== undefined && body.dimensions !== size)
      throw badRequest(`Model ${body.model} makes vectors of ${size} dimensions and cannot shorten them; leave dimensions out or send ${size}.`, 'dimensions');
    return {
      object: 'list',
      data: result.vectors.map((vector, index) => ({
        object: 'embedding',
        index,
        embedding: body.encoding_format === 'base64' ? base64Of(vector) : vector,
      })),
      model: body.model,
      usage: { prompt_tokens: result.tokens, total_tokens: result.tokens },
    };
  });
}
