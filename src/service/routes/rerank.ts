// POST /v1/rerank: a reranker's relevance scores for documents against a query, on a ranking context
// kept beside the model's generation context. Counted and rate limited like every request; nothing
// is stored (a score is made again from its texts).
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { rerankBody, type RerankList } from '../../contract/rerank.js';
import { CompletionFailure } from '../../engine/engine.js';
import { ApiError, badRequest } from '../errors.js';
import { withModelLoaded } from '../model-load-error.js';
import { parseBody } from '../validate.js';
import type { RouteKit } from './route-kit.js';
import { secured } from './route-kit.js';

export function registerRerankRoutes(app: FastifyInstance, kit: RouteKit): void {
  const { ctx } = kit;
  app.post('/v1/rerank', { preHandler: secured(kit, 'responses:write') }, async (req, reply): Promise<RerankList> => {
    const body = parseBody(rerankBody, req.body);
    const kind = ctx.models.kindOf(body.model);
    if (kind === null) throw new ApiError('model_not_found', `The model "${body.model}" is not registered here; see GET /v1/models.`, 'model');
    if (kind !== 'rerank')
      throw new ApiError(
        'model_not_reranker',
        `Model ${body.model} is not a reranker (its file declares no rank pooling), so it cannot score documents; choose a model whose kind is "rerank" in GET /v1/models.`,
      );
    const documents = body.documents.map((d) => (typeof d === 'string' ? d : d.text));
    const stop = new AbortController();
    // A client that hangs up before its answer stops the work between documents.
    reply.raw.once('close', () => {
      if (!reply.raw.writableFinished) stop.abort();
    });
    let result;
    try {
      result = await withModelLoaded(body.model, () => ctx.inMemory.rank(body.model, body.query, documents, stop.signal));
    } catch (err) {
      if (err instanceof CompletionFailure && err.code === 'context_length_exceeded') throw new ApiError('context_length_exceeded', err.message, 'documents');
      if (err instanceof CompletionFailure) throw badRequest(err.message, 'documents');
      throw err;
    }
    const ranked = result.scores.map((relevance_score, index) => ({ index, relevance_score })).sort((a, b) => b.relevance_score - a.relevance_score);
    return {
      id: `rerank_${randomUUID().replaceAll('-', '')}`,
      object: 'list',
      model: body.model,
      results: ranked
        .slice(0, body.top_n ?? ranked.length)
        .map((r) => (body.return_documents === true ? { ...r, document: { text: documents[r.index] ?? '' } } : r)),
      usage: { prompt_tokens: result.tokens, total_tokens: result.tokens },
    };
  });
}
