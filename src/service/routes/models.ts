// GET /v1/models: registered models with their on-disk status.
import type { Model } from '../../contract/tasks.js';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { principalOf } from '../access.js';
import { hasScope } from '../auth.js';
import { notFound } from '../errors.js';
import { secured, type RouteKit } from './route-kit.js';

/** A model as this caller sees it: the file's path on this machine is admin's only. */
function shownTo(req: FastifyRequest, model: Model): Model {
  if (hasScope(principalOf(req), 'admin')) return model;
  const shown = { ...model };
  delete shown.path;
  delete shown.source;
  delete shown.backup;
  delete shown.settings;
  return shown;
}

export function registerModelRoutes(app: FastifyInstance, kit: RouteKit): void {
  const { ctx } = kit;
  app.get('/v1/models', { preHandler: secured(kit, 'models:read') }, async (req): Promise<{ object: 'list'; data: Model[] }> => ({
    object: 'list',
    data: (await ctx.models.list()).map((m) => shownTo(req, m)),
  }));
  app.get<{ Params: { id: string } }>('/v1/models/:id', { preHandler: secured(kit, 'models:read') }, async (req) => {
    const model = await ctx.models.get(req.params.id);
    if (!model) throw notFound(`Model ${req.params.id}`, 'model_not_found');
    return shownTo(req, model);
  });
}
