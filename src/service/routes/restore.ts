// /admin/restore: what the GUI's restore screen uses. List the generations of a repository (newest
// data first), start one restore into an empty or absent folder (refused with 400 before anything
// starts), and follow it: GET /admin/restore/{id}, plus restore.progress / restore.finished events.
import { runIdParam } from './run-id-param.js';
import { isAbsolute } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { createRestic, ResticError } from '../../repository/restic/index.js';
import { openRepository, PassphraseNeededError, type RepositorySource } from '../../restore/open-repository.js';
import { restoreGeneration } from '../../restore/restore-generation.js';
import { repositorySourceFor, UnknownRepositoryError } from '../../restore/restore-source.js';
import { inspectTarget, proveTarget } from '../../restore/target-dir.js';
import type { RestoreJob, RestoreStarted } from '../../contract/restore.js';
import type { ServiceContext } from '../context.js';
import { ApiError, badRequest, notFound } from '../errors.js';
import { RestoreBusyError } from '../../jobs/restores.js';
import { secured, type RouteKit } from './route-kit.js';
import { parseOptionalBody } from '../validate.js';
import { registerRestoreOpenRoutes } from './restore-open.js';
import { resticCacheDir } from '../../files/data-dir-layout.js';
import { RestoreGenerationsRequest, RestoreRepoName, StartRestoreRequest } from '../../contract/admin-requests.js';

async function sourceFor(ctx: ServiceContext, repo: string, passphrase: string | undefined): Promise<RepositorySource> {
  return repositorySourceFor({
    db: ctx.writer,
    dataDir: ctx.dataDir,
    repoName: repo,
    vault: ctx.secrets.vault,
    secretsDescription: ctx.secrets.store.description,
    knownPassphrase: ctx.secrets.master.resticPassphrase,
    knownVaultKey: ctx.secrets.master.vaultKey,
    askPassphrase: async () => passphrase ?? null,
    passphraseHint: 'send it as "passphrase"',
  });
}

export function repositoryError(err: unknown): never {
  if (err instanceof UnknownRepositoryError) throw new ApiError('repository_not_found', err.message, 'repo');
  if (err instanceof PassphraseNeededError || (err instanceof ResticError && err.kind === 'wrong_password')) {
    throw badRequest(err.message, 'passphrase', 'passphrase_refused');
  }
  if (err instanceof ResticError) throw new ApiError(`repository_${err.kind}`, err.message);
  throw err;
}

export function registerRestoreRoutes(app: FastifyInstance, kit: RouteKit): void {
  const { ctx } = kit;
  const admin = secured(kit, 'admin');
  const jobs = ctx.restores;
  registerRestoreOpenRoutes(app, kit);

  const generations = async (repo: string, passphrase: string | undefined): Promise<unknown> => {
    const source = await sourceFor(ctx, repo, passphrase).catch(repositoryError);
    const restic = createRestic({ binary: source.binary, cacheDir: resticCacheDir(ctx.dataDir), logger: ctx.logger });
    const { generations: list } = await openRepository(restic, source).catch(repositoryError);
    return {
      object: 'list',
      data: list.map((g) => ({ generation: g.generation, snapshot_id: g.snapshot_id, repo: g.repo, time: g.time, size_bytes: g.size_bytes, host: g.host })),
    };
  };

  app.get<{ Querystring: { repo?: string } }>('/admin/restore/generations', { preHandler: admin }, async (req) => {
    const repo = req.query.repo ?? 'local';
    if (!RestoreRepoName.safeParse(repo).success) throw badRequest('repo must be a repository name.', 'repo');
    return generations(repo, undefined);
  });

  // A POST so a new machine's passphrase travels in the body, never in a URL.
  app.post('/admin/restore/generations', { preHandler: admin }, async (req) => {
    const body = parseOptionalBody(RestoreGenerationsRequest, req.body);
    return generations(body.repo ?? 'local', body.passphrase);
  });

  app.post('/admin/restore', { preHandler: admin }, async (req, reply) => {
    const body = parseOptionalBody(StartRestoreRequest, req.body);
    if (!isAbsolute(body.target)) throw badRequest('The target must be an absolute path to an empty or absent folder.', 'target');
    if (jobs.running) throw new ApiError('restore_running', 'A restore is already running; wait for it to finish.');
    const inspection = await proveTarget(await inspectTarget(body.target, ctx.dataDir));
    const refused = inspection.checks.find((c) => !c.ok);
    if (refused) throw badRequest(refused.detail, 'target', 'target_refused');
    const repo = body.repo ?? 'local';
    const source = await sourceFor(ctx, repo, body.passphrase).catch((err: unknown) => {
      if (err instanceof UnknownRepositoryError) throw badRequest(err.message, 'repo', 'repository_not_found');
      throw err;
    });
    const start = (): RestoreJob =>
      jobs.start(inspection.path, repo, ({ onProgress, onTargetPrepared, signal }) =>
        restoreGeneration({
          source,
          liveDataDir: ctx.dataDir,
          target: inspection.path,
          logger: ctx.logger,
          onProgress,
          onTargetPrepared,
          signal,
          ...(body.generation !== undefined ? { generation: body.generation } : {}),
          ...(body.models_in_place !== undefined ? { modelsInPlace: body.models_in_place } : {}),
          ...(body.keep_clients !== undefined ? { keepClients: body.keep_clients } : {}),
          secretsFor: async (dir) => {
            const store = ctx.secrets.store.forDataDir?.(dir);
            if (!store) throw new Error(`${ctx.secrets.store.description} cannot hold the secrets of another data dir; restore with the CLI instead.`);
            return store;
          },
        }),
      );
    let job: RestoreJob;
    try {
      job = start();
    } catch (err) {
      if (err instanceof RestoreBusyError) throw new ApiError('restore_running', 'A restore is already running; wait for it to finish.');
      throw err;
    }
    const started: RestoreStarted = { id: job.id, status: job.status };
    return reply.code(202).send(started);
  });

  // The newest restores (the Restore screen's run table reads their folders here).
  app.get('/admin/restore', { preHandler: admin }, async () => ({ object: 'list', data: jobs.list(20) }));

  app.get<{ Params: { id: string } }>('/admin/restore/:id', { preHandler: admin }, async (req) => {
    const job: RestoreJob | null = jobs.get(runIdParam(req.params.id));
    if (!job) throw notFound(`Restore ${req.params.id}`, 'restore_not_found');
    return job;
  });
}
