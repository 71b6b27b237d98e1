// GET /v1/models: registered models with their on-disk status (and, for admin, whether each is in memory).
import type { Model } from '../../contract/tasks.js';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { principalOf } from '../access.js';
import { hasScope } from '../auth.js';
import { notFound } from '../errors.js';
import { secured, type RouteKit } from './route-kit.js';
import type { ModelsInMemory } from '../../engine/models-in-memory.js';

/** A model as this caller sees it: the file's path on this machine, and whether it is in memory, are admin's only. */
function shownTo(req: FastifyRequest, model: Model, inMemory: ModelsInMemory): Model {
  if (hasScope(principalOf(req), 'admin')) return withMemory(model, inMemory);
  const shown = { ...model };
  delete shown.path;
  delete shown.source;
  delete shown.backup;
  delete shown.settings;
  return shown;
}

/** The model with what it takes in memory now (null: not loaded). */
export function withMemory(model: Model, inMemory: ModelsInMemory): Model {
  const m = inMemory.of(model.id);
  return {
    ...model,
    loaded: m
      ? {
          memory_bytes: m.memoryBytes,
          context_size: m.contextSize,
          sequences: m.sequences,
          busy: m.busy,
          last_tokens_per_second: m.lastTokensPerSecond === null ? null : Math.round(m.lastTokensPerSecond * 10) / 10,
          loaded_at: m.loadedAt,
        }
      : null,
  };
}

export function registerModelRoutes(app: FastifyInstance, kit: RouteKit): void {
  const { ctx } = kit;
  app.get('/v1/models', { preHandler: secured(kit, 'models:read') }, async (req): Promise<{ object: 'list'; data: Model[] }> => ({
    object: 'list',
    data: (await ctx.models.list()).map((m) => shownTo(req, m, ctx.inMemory)),
  }));
  app.get<{ Params: { id: string } }>('/v1/models/:id', { preHandler: secured(kit, 'models:read') }, async (req) => {
    const model = await ctx.models.get(req.params.id);
    if (!model) throw notFound(`Model ${req.params.id}`, 'model_not_found');
    return shownTo(req, model, ctx.inMemory);
  });
}
