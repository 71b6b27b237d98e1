// `sanad models pull URI [--id ID] [--sha256 HEX]`: what will be downloaded is said first (size,
// room, memory, checksum), then the download's progress on stderr, then the registered model.
// Beside a running `sanad serve` the pull is the service's job (asked for over the admin API and
// followed; Ctrl-C leaves it running there). Otherwise it runs here under the instance lock, as a
// job of this process's own owner; Ctrl-C stops it with what arrived kept, and the next pull (or
// the next start of Sanad) resumes it.
import { parseArgs } from 'node:util';
import { systemClock } from '../../clock.js';
import { Pull, PullPlanShown } from '../../contract/pulls.js';
import { ModelRegistry } from '../../engine/registry.js';
import { PullRefusedError } from '../../engine/hub/pull-plan.js';
import { Jobs } from '../../jobs/jobs.js';
import { ModelPulls } from '../../jobs/pulls.js';
import { createLogger, levelFromEnv } from '../../log/logger.js';
import { openSecretStore } from '../../secrets/open-secret-store.js';
import type { SecretStore } from '../../secrets/secret-store.js';
import { formatBytes } from '../../store/disk.js';
import { tryFileLock } from '../../store/file-lock.js';
import { readSettings } from '../../store/settings.js';
import { CliError, usageError } from '../cli-error.js';
import type { Io } from '../io.js';
import { errorMessage, LONG_REQUEST_MS, serviceHoldsDataDir, withRunningService, type AdminCall } from '../running-service.js';
import { withStore } from '../store-access.js';
import { instanceLockPath } from '../../files/data-dir-layout.js';

const POLL_MS = 500;
const SHOW_EVERY_MS = 1000;

/** Without a usable keychain a pull still works, only without a hub token. */
const NO_SECRETS: SecretStore = {
  kind: 'file',
  description: 'no secret store',
  get: () => Promise.resolve(null),
  set: () => Promise.reject(new Error('no secret store')),
  delete: () => Promise.resolve(false),
  probe: () => Promise.resolve(),
};

/** The keychain, opened only if the hub asks for the token (a gated model): most pulls never touch it. */
function lazySecrets(open: () => Promise<SecretStore>): SecretStore {
  let opened: Promise<SecretStore> | null = null;
  const store = (): Promise<SecretStore> => (opened ??= open().catch(() => NO_SECRETS));
  return {
    kind: 'keychain',
    description: 'the secret store, opened when needed',
    get: async (name) => (await store()).get(name),
    set: async (name, value) => (await store()).set(name, value),
    delete: async (name) => (await store()).delete(name),
    probe: async () => (await store()).probe(),
  };
}

function progressLine(p: NonNullable<Pull['progress']>, name: string): string {
  if (p.phase === 'verifying') return `${name}: downloaded; checking its sha256…`;
  const pct = p.total > 0 ? Math.floor((p.bytes / p.total) * 100) : 0;
  const eta = p.eta === null ? '' : ` · ${p.eta < 90 ? `${Math.ceil(p.eta)} s` : `${Math.ceil(p.eta / 60)} min`} left`;
  return `${name}: ${pct}% · ${formatBytes(p.bytes)} of ${formatBytes(p.total)} · ${formatBytes(Math.round(p.rate))}/s${eta}`;
}

function ending(pull: Pull): string {
  if (pull.status === 'done') return `Registered ${pull.model_id} from ${pull.uri}${pull.sha256 ? ` (sha256 ${pull.sha256}, verified)` : ''}.`;
  if (pull.status === 'cancelled') return `The pull of ${pull.uri} was cancelled; nothing was registered and what arrived was deleted.`;
  return `The pull of ${pull.uri} failed: ${pull.error ?? 'no reason recorded'}`;
}

export async function pullCommand(args: string[], dataDir: string, io: Io, secretsFile: string | undefined): Promise<number> {
  const { values, positionals } = parseArgs({ args, options: { id: { type: 'string' }, sha256: { type: 'string' } }, allowPositionals: true, strict: true });
  const uri = positionals[0];
  if (!uri || positionals.length > 1)
    throw usageError(
      'Give exactly one model address: `sanad models pull hf:OWNER/REPO/FILE.gguf` (or hf:OWNER/REPO:QUANT, hf:OWNER/REPO, https://…/FILE.gguf).',
    );
  const request = { uri, ...(values.id ? { id: values.id } : {}), ...(values.sha256 ? { sha256: values.sha256 } : {}) };
  const pull = serviceHoldsDataDir(dataDir)
    ? await withRunningService(dataDir, 'sanad models pull', (call) => inService(call, io, request))
    : await here(dataDir, io, secretsFile, request);
  if (pull.status !== 'done') {
    // A failure is said on stderr as one sentence (with --json, the pull object too).
    if (io.json) io.result(pull, () => '');
    throw new CliError(ending(pull));
  }
  io.result(pull, () => ending(pull));
  return 0;
}

function sayPlan(io: Io, plan: PullPlanShown, joined: boolean): void {
  if (io.json) return;
  io.note(`${plan.uri} → model "${plan.model_id}"${plan.revision ? ` (commit ${plan.revision.slice(0, 12)})` : ''}`);
  for (const s of plan.sentences) io.note(`  ${s}`);
  if (joined) io.note('  This file is already being downloaded; following that pull.');
}

function printer(io: Io, name: string): (p: Pull['progress']) => void {
  let shownAt = 0;
  let verifying = false;
  return (p) => {
    if (io.json || !p) return;
    const now = systemClock.now();
    if (p.phase === 'verifying' ? verifying : now - shownAt < SHOW_EVERY_MS) return;
    verifying = p.phase === 'verifying';
    shownAt = now;
    io.note(progressLine(p, name));
  };
}

/** No service holds the data dir: the pull runs in this process, under the instance lock. */
async function here(dataDir: string, io: Io, secretsFile: string | undefined, request: { uri: string; id?: string; sha256?: string }): Promise<Pull> {
  // Only the hub token is read from it, so no master secrets are made for a pull.
  const store = lazySecrets(() => openSecretStore(dataDir, secretsFile));
  const lock = tryFileLock(instanceLockPath(dataDir));
  if (!lock) throw new CliError('A Sanad service is starting on this data dir (or another command holds it); try again in a moment.');
  try {
    return await withStore(dataDir, async (db) => {
      const logger = createLogger({ level: levelFromEnv(process.env.SANAD_LOG ?? 'warn') });
      const jobs = new Jobs({ clock: systemClock, logger, store: { db, dataDir } });
      const settings = readSettings(db);
      const pulls = new ModelPulls({
        db,
        dataDir,
        clock: systemClock,
        logger,
        jobs,
        store,
        registry: new ModelRegistry(db, systemClock),
        settings: () => settings,
      });
      let started;
      try {
        started = await pulls.start(request);
      } catch (err) {
        if (err instanceof PullRefusedError) throw new CliError(err.message);
        throw err;
      }
      sayPlan(io, started.plan, started.joined);
      const id = started.pull.id;
      const show = printer(io, started.pull.file_name);
      const stop = (): void => {
        io.note('Stopping; what arrived is kept: run the same `sanad models pull` again (or start Sanad) to resume.');
        void jobs.stop(5000);
      };
      process.once('SIGINT', stop);
      try {
        const job = jobs.byId(id);
        const tick = setInterval(() => show(pulls.get(id)?.progress ?? null), POLL_MS);
        await job?.done.catch(() => undefined);
        clearInterval(tick);
      } finally {
        process.off('SIGINT', stop);
      }
      const end = pulls.get(id);
      if (!end) throw new Error(`pull ${id} vanished`);
      if (end.status === 'running')
        throw new CliError('Stopped before the download finished; what arrived is kept, and the same `sanad models pull` resumes it.', 130);
      return end;
    });
  } finally {
    lock.release();
  }
}

/** A service runs on this data dir: the pull is its job; ask for it and follow it to its end. */
async function inService(call: AdminCall, io: Io, request: { uri: string; id?: string; sha256?: string }): Promise<Pull> {
  const asked = await call('POST', '/admin/models/pulls', request, LONG_REQUEST_MS);
  if (asked.status >= 400) throw new CliError(errorMessage(asked.body, `The service refused the pull (HTTP ${asked.status}).`));
  const startedBody = Pull.extend({ plan: PullPlanShown }).safeParse(asked.body);
  if (!startedBody.success)
    throw new CliError('The service answered the pull with something this sanad does not understand; are the CLI and the service the same version?');
  sayPlan(io, startedBody.data.plan, asked.status === 200 && startedBody.data.status !== 'done');
  const show = printer(io, startedBody.data.file_name);
  let pull: Pull = startedBody.data;
  while (pull.status === 'running' || pull.status === 'waiting') {
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    const answer = await call('GET', `/admin/models/pulls/${encodeURIComponent(pull.id)}`);
    const parsed = Pull.safeParse(answer.body);
    if (answer.status !== 200 || !parsed.success)
      throw new CliError(errorMessage(answer.body, `The service lost track of pull ${pull.id}; see \`sanad models list\`.`));
    pull = parsed.data;
    show(pull.progress);
  }
  return pull;
}
