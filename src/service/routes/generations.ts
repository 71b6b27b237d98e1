// Looking inside generations (admin): what one holds, its responses (paged, searchable), what
// changed between two of them or since one, bringing responses back into the live data, and the
// record of what was brought back. Reads the generation from its repository once (jobs/
// generations.ts caches the opened copy); never writes to a repository.
import { refusalOf } from '../../contract/issue-words.js';
import type { FastifyInstance } from 'fastify';
import type { BringBackResult, GenerationConversationPage, GenerationDiff, GenerationResponsePage, GenerationSummary } from '../../contract/history.js';
import { bringBack, listBringBacks } from '../../history/bring-back.js';
import { diffStores } from '../../history/diff.js';
import { GenerationNotSanadError, GenerationTooNewError, GenerationUnreadableError } from '../../history/generation-copy.js';
import { conversationsPage, liveStateOf, MAX_PAGE, responsesPage, summaryOf, type PageQuery } from '../../history/read-generation.js';
import { GenerationNotFoundError } from '../../jobs/generations.js';
import { JobsStoppedError } from '../../jobs/jobs.js';
import { unixSeconds } from '../../clock.js';
import { principalOf } from '../access.js';
import type { ServiceContext } from '../context.js';
import { ApiError, badRequest } from '../errors.js';
import { secured, type RouteKit } from './route-kit.js';
import { repositoryError } from './restore.js';
import { BringBackId, BringBackRepoName, BringBackRequest } from '../../contract/admin-requests.js';

type Params = { generation: string };
type RepoQuery = { repo?: string };

function generationParam(raw: string): number {
  if (!/^[1-9][0-9]{0,11}$/.test(raw)) throw badRequest(`"${raw}" is not a generation number; GET /admin/restore/generations lists them.`, 'generation');
  return Number(raw);
}

function repoParam(raw: string | undefined): string {
  const repo = raw ?? 'local';
  if (!BringBackRepoName.safeParse(repo).success) throw badRequest('repo must be a repository name.', 'repo');
  return repo;
}

type ListQuery = RepoQuery & { q?: string; after?: string; limit?: string };

/** The search words, cursor and page size of a list inside a generation. */
function pageQuery(query: ListQuery, idName: string): PageQuery {
  const { q, after, limit } = query;
  if (q !== undefined && q.length > 200) throw badRequest('q is at most 200 characters.', 'q');
  if (after !== undefined && !BringBackId.safeParse(after).success) throw badRequest(`after must be ${idName}.`, 'after');
  if (limit !== undefined && (!/^[1-9][0-9]{0,2}$/.test(limit) || Number(limit) > MAX_PAGE))
    throw badRequest(`limit must be a number from 1 to ${MAX_PAGE}.`, 'limit');
  return { ...(q !== undefined ? { q } : {}), ...(after !== undefined ? { after } : {}), ...(limit !== undefined ? { limit: Number(limit) } : {}) };
}

function historyError(err: unknown): never {
  if (err instanceof GenerationNotFoundError) throw new ApiError('generation_not_found', err.message, 'generation');
  if (err instanceof GenerationTooNewError) throw new ApiError('generation_too_new', err.message, 'generation');
  if (err instanceof GenerationNotSanadError) throw new ApiError('generation_not_sanad', err.message, 'generation');
  if (err instanceof GenerationUnreadableError) throw new ApiError('generation_unreadable', err.message, 'generation');
  if (err instanceof JobsStoppedError) throw new ApiError('stopping', err.message);
  return repositoryError(err);
}

export function registerGenerationRoutes(app: FastifyInstance, kit: RouteKit): void {
  const { ctx } = kit;
  const admin = secured(kit, 'admin');
  const open = (repo: string, generation: number): ReturnType<ServiceContext['generations']['open']> =>
    ctx.generations.open(repo, generation).catch(historyError);

  app.get<{ Params: Params; Querystring: RepoQuery }>('/admin/generations/:generation', { preHandler: admin }, async (req): Promise<GenerationSummary> => {
    const opened = await open(repoParam(req.query.repo), generationParam(req.params.generation));
    return summaryOf(opened);
  });

  app.get<{ Params: Params; Querystring: ListQuery }>(
    '/admin/generations/:generation/responses',
    { preHandler: admin },
    async (req): Promise<GenerationResponsePage> => {
      const generation = generationParam(req.params.generation);
      const query = pageQuery(req.query, 'a response id');
      const opened = await open(repoParam(req.query.repo), generation);
      const deleted = new Set(ctx.deletions.read().map((d) => d.id));
      return responsesPage(opened.db, query, liveStateOf(ctx.db, deleted));
    },
  );

  app.get<{ Params: Params; Querystring: ListQuery }>(
    '/admin/generations/:generation/conversations',
    { preHandler: admin },
    async (req): Promise<GenerationConversationPage> => {
      const generation = generationParam(req.params.generation);
      const query = pageQuery(req.query, 'a conversation id');
      const opened = await open(repoParam(req.query.repo), generation);
      const deleted = new Set(ctx.deletions.read().map((d) => d.id));
      const page = conversationsPage(opened.db, query, liveStateOf(ctx.db, deleted, 'conversations'));
      if ('unknownCursor' in page)
        throw badRequest(`No conversation ${query.after ?? ''} is in this generation; pass the last id of the page before.`, 'after');
      return page;
    },
  );

  app.get<{ Params: Params; Querystring: RepoQuery & { to?: string } }>(
    '/admin/generations/:generation/diff',
    { preHandler: admin },
    async (req): Promise<GenerationDiff> => {
      const repo = repoParam(req.query.repo);
      const from = generationParam(req.params.generation);
      const to = req.query.to === undefined || req.query.to === 'live' ? 'live' : generationParam(req.query.to);
      const a = await open(repo, from);
      const b = to === 'live' ? null : await open(repo, to);
      return diffStores(a.db, b?.db ?? ctx.db, { from, to });
    },
  );

  app.post<{ Params: Params }>('/admin/generations/:generation/bring-back', { preHandler: admin }, async (req): Promise<BringBackResult> => {
    const generation = generationParam(req.params.generation);
    const parsed = BringBackRequest.safeParse(req.body);
    if (!parsed.success) {
      const { param, message } = refusalOf(parsed.error.issues[0]);
      throw badRequest(`${message} Send {"responses": ["resp_…"], "undelete": false}.`, param);
    }
    const opened = await open(repoParam(parsed.data.repo), generation);
    const p = principalOf(req);
    const result = bringBack({
      live: ctx.writer,
      journal: ctx.deletions,
      opened,
      ids: parsed.data.responses,
      undelete: parsed.data.undelete ?? false,
      by: p.kind === 'client' ? p.client.name : 'gui',
      nowS: unixSeconds(ctx.clock),
    });
    ctx.logger.info('responses brought back from a generation', {
      generation,
      repo: opened.g.repo,
      brought: result.brought_back.length,
      skipped: result.skipped.length,
    });
    if (result.brought_back.length > 0) ctx.adminEvents.publish('history.changed', { generation, brought_back: result.brought_back });
    return result;
  });

  app.get('/admin/bring-backs', { preHandler: admin }, async () => ({ object: 'list', data: listBringBacks(ctx.db) }));
}
