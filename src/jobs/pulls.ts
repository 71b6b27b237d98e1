// Model downloads as jobs of the one owner (jobs.ts, kind `pull`: beside every other job, one
// download at a time, the next waiting), each recorded as a run (kind `pull`: its progress and end
// told as every run's). Each is a row of model_pulls (store/model-pulls.ts) from before its first
// byte to its registration, so a pull still running when Sanad stops (or is killed) is started
// again at the next start, under the same run, and resumes from its partial file. Two pulls of one
// file are one: the second gets the first. The partial lives in `models/.pulls/<key of the URL>/`,
// so any later pull of the same file, even after a failure, resumes it; only a cancel deletes it.
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Clock } from '../clock.js';
import type { Pull, PullPlanShown } from '../contract/pulls.js';
import { DownloadError, downloadedSoFar, downloadVerified, type DownloadInput, type PullProgress } from '../engine/hub/download.js';
import { downloadSource, HubError, hubEndpoint, type Hub } from '../engine/hub/hub-client.js';
import { ModelUriError } from '../engine/hub/model-uri.js';
import { QuantChoiceError } from '../engine/hub/choose-quant.js';
import { planPull, PullRefusedError, type PullPlan } from '../engine/hub/pull-plan.js';
import type { ModelRegistry } from '../engine/registry.js';
import type { Logger } from '../log/logger.js';
import { uniqueName } from '../restore/assemble.js';
import { HUB_TOKEN, type SecretStore } from '../secrets/secret-store.js';
import {
  finishPull,
  getPull,
  insertPull,
  notePullBytes,
  pruneEndedPulls,
  recentPulls,
  runningPullOf,
  pullOfRun,
  runningPulls,
  setPullRun,
  type PullRow,
} from '../store/model-pulls.js';
import type { Db } from '../store/open.js';
import type { Settings } from '../store/settings.js';
import type { AdminEvents } from './admin-events.js';
import { JobCancelledError, JobsStoppedError, type Job, type Jobs } from './jobs.js';
import { endRun, getRun, listRuns, reopenRun, type RunEnd } from './runs.js';
import { modelsDir } from '../files/data-dir-layout.js';

const KEEP_ENDED = 50;
/** The bytes so far are written to the pull's row (where a resume starts from) at most this often. */
const STORE_PROGRESS_MS = 2000;
const RUN_CUT_SHORT = 'Sanad stopped while this download ran, and nothing was left to resume; pull the model again.';

export interface PullDeps {
  db: Db;
  dataDir: string;
  clock: Clock;
  logger: Logger;
  jobs: Jobs;
  store: SecretStore;
  registry: ModelRegistry;
  settings: () => Settings;
  events?: AdminEvents;
  /** Tests: faster retries and smaller chunks, so a cut connection is seen in seconds. */
  download?: Pick<DownloadInput, 'retry' | 'chunkSize'>;
  env?: NodeJS.ProcessEnv;
}

export interface PullRequest {
  uri: string;
  id?: string | undefined;
  sha256?: string | undefined;
}

/** The partial download of a URL: one folder per file, whichever pull of it runs. */
export function partialDir(dataDir: string, url: string): string {
  return join(modelsDir(dataDir), '.pulls', createHash('sha256').update(url).digest('hex').slice(0, 16));
}

/** A refusal from the hub, the URI or the plan, as one PullRefusedError with its code. */
export function asRefusal(err: unknown): unknown {
  if (err instanceof PullRefusedError) return err;
  if (err instanceof HubError) return new PullRefusedError(err.message, err.code);
  if (err instanceof ModelUriError) return new PullRefusedError(err.message, 'invalid_uri');
  if (err instanceof QuantChoiceError) return new PullRefusedError(err.message, 'no_quant');
  return err;
}

export class ModelPulls {
  /** Pulls a person cancelled (their partial goes); any other abort is a stop (it stays, to resume). */
  private readonly cancelled = new Set<string>();

  constructor(private readonly deps: PullDeps) {}

  /** The hub, with the saved token read only if it asks for one. */
  private hub(signal?: AbortSignal): Hub {
    const store = this.deps.store;
    return { endpoint: hubEndpoint(this.deps.env), token: null, loadToken: () => store.get(HUB_TOKEN), ...(signal ? { signal } : {}) };
  }

  private async planFor(request: PullRequest, signal?: AbortSignal): Promise<PullPlan> {
    const { db, dataDir } = this.deps;
    try {
      return await planPull({
        db,
        dataDir,
        modelsDir: modelsDir(dataDir),
        hub: this.hub(signal),
        uri: request.uri,
        id: request.id,
        sha256: request.sha256,
        alreadyDownloaded: (url, fileName) => downloadedSoFar(partialDir(dataDir, url), fileName),
      });
    } catch (err) {
      throw asRefusal(err);
    }
  }

  /** What a pull of this URI would download and whether it fits, without starting it. */
  async plan(request: PullRequest, signal?: AbortSignal): Promise<PullPlanShown> {
    return shownPlan(await this.planFor(request, signal));
  }

  /** Plans (refusing at once what cannot be done) and starts the download, or joins the one of the same file. */
  async start(request: PullRequest): Promise<{ pull: Pull; plan: PullPlanShown; joined: boolean }> {
    const { db, clock } = this.deps;
    const p = await this.planFor(request);
    const plan = shownPlan(p);
    const running = runningPullOf(db, p.url);
    if (running) {
      // Under the instance lock only this owner pulls: a running row without its job here was
      // left by a stopped or killed process, and goes on now from its partial file.
      if (this.deps.jobs.byId(running.id) === null) this.run(running.id, p.useToken, running.run_id);
      return { pull: this.shown(running), plan, joined: true };
    }
    const id = `pull_${randomBytes(8).toString('hex')}`;
    const row = {
      id,
      uri: p.uri,
      url: p.url,
      file_name: p.fileName,
      model_id: p.modelId,
      size_bytes: p.size,
      sha256: p.sha256,
      revision: p.revision,
      created_at: clock.now(),
    };
    insertPull(db, row);
    if (p.alreadyHave) finishPull(db, id, { status: 'done', error: null, finishedAt: clock.now() });
    else this.run(id, p.useToken);
    const pull = this.get(id);
    if (!pull) throw new Error(`pull ${id} was not recorded`);
    return { pull, plan, joined: false };
  }

  /** At start-up: every pull a stop or a crash left running goes on (from its partial file, under
   *  its run); a pull run left open with no pull to go on is ended. */
  resumeLeftovers(): number {
    const { db, dataDir, clock } = this.deps;
    const rows = runningPulls(db);
    for (const row of rows) this.run(row.id, !row.uri.startsWith('http'), row.run_id);
    const resumed = new Set(rows.map((r) => r.run_id));
    for (const run of listRuns(db, { kind: 'pull', open: true, limit: 100 })) {
      if (resumed.has(run.id)) continue;
      const open = reopenRun(db, dataDir, run.id, 'running', clock.now());
      if (open) endRun(db, dataDir, open, { status: 'interrupted', error: RUN_CUT_SHORT }, clock.now());
    }
    if (rows.length > 0) this.deps.logger.info('resuming model downloads left running', { pulls: rows.map((r) => r.id) });
    return rows.length;
  }

  get(id: string): Pull | null {
    const row = getPull(this.deps.db, id);
    return row ? this.shown(row) : null;
  }

  list(): Pull[] {
    return recentPulls(this.deps.db, 20).map((r) => this.shown(r));
  }

  /** The id of the pull recorded under this run (GET /admin/runs: kind `pull`), if any. */
  ofRun(runId: number): string | null {
    return pullOfRun(this.deps.db, runId)?.id ?? null;
  }

  /** Cancels a running or waiting pull and deletes what it downloaded; false if it had ended. */
  cancel(id: string): boolean {
    const row = getPull(this.deps.db, id);
    if (!row || row.status !== 'running') return false;
    this.cancelled.add(id);
    const job = this.deps.jobs.byId(id);
    if (job) job.cancel();
    else {
      void this.settle(row, 'cancelled', null);
      this.endLeftRun(row.run_id, { status: 'cancelled', error: null });
    }
    return true;
  }

  /** Ends a pull's run no job of this process holds (a stop left it open). */
  private endLeftRun(runId: number | null, end: RunEnd): void {
    const { db, dataDir, clock } = this.deps;
    const open = runId === null ? null : reopenRun(db, dataDir, runId, 'running', clock.now());
    if (open) endRun(db, dataDir, open, end, clock.now());
  }

  private shown(row: PullRow): Pull {
    const job = this.deps.jobs.byId<void, PullProgress>(row.id);
    const status = row.status === 'running' && job?.state === 'waiting' ? 'waiting' : row.status;
    const progress =
      job?.progress ??
      (row.status === 'running' ? { bytes: row.downloaded_bytes, total: row.size_bytes, rate: 0, eta: null, phase: 'downloading' as const } : null);
    return {
      id: row.id,
      uri: row.uri,
      model_id: row.model_id,
      file_name: row.file_name,
      size_bytes: row.size_bytes,
      sha256: row.sha256,
      revision: row.revision,
      status,
      error: row.error,
      progress,
      created_at: row.created_at,
      finished_at: row.finished_at,
      run_id: row.run_id,
    };
  }

  private run(id: string, useToken: boolean, leftOpen: number | null = null): void {
    const { jobs, db } = this.deps;
    const resume = leftOpen !== null && isOpen(getRun(db, leftOpen)?.status) ? leftOpen : undefined;
    let job: Job<void, PullProgress>;
    try {
      job = jobs.start<void, PullProgress>('pull', (control) => this.work(id, useToken, control.signal, (p) => control.progress(p)), {
        id,
        record: {
          kind: 'pull',
          trigger: 'api',
          // A stop leaves the run open with the row: the next start goes on under it.
          resumable: true,
          ...(resume !== undefined ? { resume } : {}),
          keep: KEEP_ENDED,
          end: () => pullRunEnd(getPull(db, id)),
        },
      });
    } catch (err) {
      // Sanad is stopping: the row stays running and the next start resumes it.
      if (err instanceof JobsStoppedError) return;
      throw err;
    }
    if (job.run) setPullRun(db, id, job.run.id);
    void job.done.catch((err: unknown) => {
      if (err instanceof JobCancelledError && this.cancelled.has(id)) {
        const row = getPull(this.deps.db, id);
        if (row) void this.settle(row, 'cancelled', null);
      }
    });
  }

  private async work(id: string, useToken: boolean, signal: AbortSignal, progress: (p: PullProgress) => void): Promise<void> {
    const { db, dataDir, clock, logger, registry } = this.deps;
    const row = getPull(db, id);
    if (!row || row.status !== 'running') return;
    const dir = partialDir(dataDir, row.url);
    await mkdir(dir, { recursive: true, mode: 0o700 });
    let storedAt = 0;
    try {
      // The signed CDN address is asked for again at every attempt (it expires); the token stays with the hub.
      const source = await downloadSource(this.hub(signal), row.url, useToken);
      const { path, sha256 } = await downloadVerified({
        url: source.url,
        headers: source.headers,
        dir,
        fileName: row.file_name,
        size: row.size_bytes,
        sha256: row.sha256,
        signal,
        ...this.deps.download,
        onProgress: (p) => {
          progress(p);
          const now = clock.now();
          if (now - storedAt >= STORE_PROGRESS_MS) {
            storedAt = now;
            notePullBytes(db, id, p.bytes);
          }
        },
      });
      const models = modelsDir(dataDir);
      const finalPath = join(models, uniqueName(row.file_name, new Set(await readdir(models).catch(() => []))));
      await rename(path, finalPath);
      try {
        await registry.addPulled(
          finalPath,
          row.model_id,
          sha256,
          { uri: row.uri, url: row.url, revision: row.revision },
          this.deps.settings().pulled_models_backup,
        );
      } catch (err) {
        // Registration refused (an id taken meanwhile): the verified file goes back to its folder,
        // so the next pull (with another --id) does not download it again.
        await rename(finalPath, path).catch(() => undefined);
        throw err;
      }
      await rm(dir, { recursive: true, force: true });
      notePullBytes(db, id, row.size_bytes);
      await this.settle(row, 'done', null);
      logger.info('model pulled and registered', { model: row.model_id, uri: row.uri, bytes: row.size_bytes });
    } catch (err) {
      if (signal.aborted) {
        if (this.cancelled.has(id)) await this.settle(row, 'cancelled', null);
        // Otherwise Sanad is stopping: the row stays `running`, resumed at the next start.
        return;
      }
      const message = err instanceof Error ? err.message : String(err);
      if (!(err instanceof DownloadError)) logger.warn('model pull failed', { pull: id, error: message });
      await this.settle(row, 'failed', message);
    }
  }

  private async settle(row: PullRow, status: 'done' | 'failed' | 'cancelled', error: string | null): Promise<void> {
    const { db, clock, events, dataDir } = this.deps;
    if (status === 'cancelled') await rm(partialDir(dataDir, row.url), { recursive: true, force: true });
    if (!finishPull(db, row.id, { status, error, finishedAt: clock.now() })) return;
    this.cancelled.delete(row.id);
    pruneEndedPulls(db, KEEP_ENDED);
    events?.publish('pull.finished', { id: row.id, model_id: row.model_id, status, error });
  }
}

const isOpen = (status: string | undefined): boolean => status === 'queued' || status === 'running';

/** A pull's run ends as its row did: registered is ok, a cancel cancelled, else failed with why. */
function pullRunEnd(row: PullRow | undefined): RunEnd {
  if (row?.status === 'done') return { status: 'ok', error: null };
  if (row?.status === 'cancelled') return { status: 'cancelled', error: null };
  return { status: 'failed', error: row?.error ?? 'The download ended without registering the model.' };
}

function shownPlan(p: PullPlan): PullPlanShown {
  return {
    uri: p.uri,
    model_id: p.modelId,
    file_name: p.fileName,
    size_bytes: p.size,
    sha256: p.sha256,
    revision: p.revision,
    sentences: p.sentences,
    fits_memory: p.memory?.fits ?? null,
    already_registered: p.alreadyHave,
    disk_free: p.disk.free,
    disk_needed: p.disk.needed,
    memory_needed: p.memory?.needed ?? null,
    memory_total: p.memory?.total ?? null,
    context_size: p.memory?.contextSize ?? null,
    sha256_from: p.sha256From,
    chosen_quant: p.chosenQuant,
    offered: p.offered,
  };
}
