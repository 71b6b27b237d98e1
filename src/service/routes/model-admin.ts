// /admin/models/…: getting a model from a hub (plan, pull, follow, cancel), a model's run settings
// and backup choice, loading and unloading it by hand, and the hub token (saved to the keychain,
// never shown back).
import type { FastifyInstance } from 'fastify';
import type { Pull, PullPlanShown } from '../../contract/pulls.js';
import type { Model } from '../../contract/tasks.js';
import { PullRefusedError } from '../../engine/hub/pull-plan.js';
import { ModelRegistryError } from '../../engine/registry.js';
import { withMemory } from './models.js';
import { HUB_TOKEN } from '../../secrets/secret-store.js';
import { ApiError, notFound } from '../errors.js';
import { parseBody } from '../validate.js';
import { withModelLoaded } from '../model-load-error.js';
import { secured, type RouteKit } from './route-kit.js';
import { HubTokenRequest, ModelSettingsRequest, PullRequest } from '../../contract/admin-requests.js';

function refusal(err: unknown): never {
  if (err instanceof PullRefusedError) {
    throw new ApiError(err.code, err.message, err.code === 'invalid_id' || err.code === 'model_exists' ? 'id' : 'uri');
  }
  throw err;
}

export function registerModelAdminRoutes(app: FastifyInstance, kit: RouteKit): void {
  const { ctx } = kit;
  const admin = secured(kit, 'admin');

  app.post('/admin/models/pulls/plan', { preHandler: admin }, async (req): Promise<PullPlanShown> => {
    const body = parseBody(PullRequest, req.body);
    try {
      return await ctx.pulls.plan(body);
    } catch (err) {
      return refusal(err);
    }
  });

  app.post('/admin/models/pulls', { preHandler: admin }, async (req, reply) => {
    const body = parseBody(PullRequest, req.body);
    try {
      const { pull, plan, joined } = await ctx.pulls.start(body);
      return await reply.code(joined || pull.status === 'done' ? 200 : 202).send({ ...pull, plan });
    } catch (err) {
      return refusal(err);
    }
  });

  app.get('/admin/models/pulls', { preHandler: admin }, async (): Promise<{ object: 'list'; data: Pull[] }> => ({ object: 'list', data: ctx.pulls.list() }));

  app.get<{ Params: { id: string } }>('/admin/models/pulls/:id', { preHandler: admin }, async (req): Promise<Pull> => {
    const pull = ctx.pulls.get(req.params.id);
    if (!pull) throw notFound(`Pull ${req.params.id}`, 'pull_not_found');
    return pull;
  });

  app.post<{ Params: { id: string } }>('/admin/models/pulls/:id/cancel', { preHandler: admin }, async (req): Promise<Pull> => {
    const before = ctx.pulls.get(req.params.id);
    if (!before) throw notFound(`Pull ${req.params.id}`, 'pull_not_found');
    ctx.pulls.cancel(req.params.id);
    return ctx.pulls.get(req.params.id) ?? before;
  });

  app.post<{ Params: { id: string } }>('/admin/models/:id/settings', { preHandler: admin }, async (req): Promise<Model> => {
    const body = parseBody(ModelSettingsRequest, req.body);
    try {
      const { backup, ...settings } = body;
      let model = await ctx.models.setSettings(req.params.id, settings);
      if (backup !== undefined) model = await ctx.models.setBackup(req.params.id, backup);
      return model;
    } catch (err) {
      if (!(err instanceof ModelRegistryError)) throw err;
      if (err.code === 'model_not_found') throw notFound(`Model ${req.params.id}`, 'model_not_found');
      throw new ApiError(err.code, err.message);
    }
  });

  // Loading and unloading by hand: the answer is the model with its `loaded` state.
  const shown = async (id: string): Promise<Model> => {
    const model = await ctx.models.get(id);
    if (!model) throw notFound(`Model ${id}`, 'model_not_found');
    return withMemory(model, ctx.inMemory);
  };
  app.post<{ Params: { id: string } }>('/admin/models/:id/load', { preHandler: admin }, async (req): Promise<Model> => {
    await withModelLoaded(req.params.id, () => ctx.inMemory.load(req.params.id));
    return shown(req.params.id);
  });
  app.post<{ Params: { id: string } }>('/admin/models/:id/unload', { preHandler: admin }, async (req): Promise<Model> => {
    const model = await shown(req.params.id);
    await ctx.inMemory.unload(req.params.id);
    return { ...model, loaded: null };
  });

  app.get('/admin/hub-token', { preHandler: admin }, async (): Promise<{ saved: boolean }> => ({
    saved: (await ctx.secrets.store.get(HUB_TOKEN).catch(() => null)) !== null,
  }));

  app.put('/admin/hub-token', { preHandler: admin }, async (req): Promise<{ saved: boolean }> => {
    const { token } = parseBody(HubTokenRequest, req.body);
    await ctx.secrets.store.set(HUB_TOKEN, token);
    return { saved: true };
  });

  app.delete('/admin/hub-token', { preHandler: admin }, async (): Promise<{ saved: boolean }> => {
    await ctx.secrets.store.delete(HUB_TOKEN);
    return { saved: false };
  });
}
