// GET /v1/models: registered models with their on-disk status.
import type { Model } from '../../contract/tasks.js';
import type { FastifyInstance } from 'fastify';
import { notFound } from '../errors.js';
import { secured, type RouteKit } from './kit.js';

export function registerModelRoutes(app: FastifyInstance, kit: RouteKit): void {
  const { ctx } = kit;
  app.get('/v1/models', { preHandler: secured(kit, 'models:read') }, async (): Promise<{ object: 'list'; data: Model[] }> => ({ object: 'list', data: await ctx.models.list() }));
  app.get<{ Params: { id: string } }>('/v1/models/:id', { preHandler: secured(kit, 'models:read') }, async (req) => {
    const model = await ctx.models.get(req.params.id);
    if (!model) throw notFound(`Model ${req.params.id}`, 'model_not_found');
    return model;
  });
}
