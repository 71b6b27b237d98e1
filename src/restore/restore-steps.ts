// The steps of one restore, each recorded as a check: find the generation (by epoch), fetch it
// (fetch-generation.ts: manifest and vault key into memory, the rest into the work folder), verify every
// item, place the files, check each database read-only, point the registry at the restored dir,
// ask Sanad's store code where it would read, clean up, and only then store the secrets.
import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { ModelManifestItem } from '../repository/generation/manifest.js';
import { createRestic, type Restic, type ResticRepo } from '../repository/restic/index.js';
import { startHashWorkers, type Hasher } from '../files/hash-file.js';
import { ADMISSION_WORKER, admitUntrustedStore } from '../store/untrusted-store.js';
import { INTEGRITY_WORKER } from '../store/integrity.js';
import { prestartWorkers } from '../process/worker-call.js';
import { RESTIC_PASSPHRASE, VAULT_KEY, VAULT_KEY_NEXT, type SecretStore } from '../secrets/secret-store.js';
import { writeSecretsLocation } from '../secrets/secrets-location.js';
import { placeFiles, type Placement } from './assemble.js';
import { checkRestoredStores } from './check-restored.js';
import { pullLeftOutModels } from './pull-left-out.js';
import { hubEndpoint, type Hub } from '../engine/hub/hub-client.js';

/** The hub a restore pulls left-out models from when its caller names none: HF_ENDPOINT, no token. */
const defaultHub = (): Promise<Hub> => Promise.resolve({ endpoint: hubEndpoint(), token: null });
import type { Spoken } from '../contract/said.js';
import { say } from '../contract/said/index.js';
import { CheckFailed, CheckList } from './checks.js';
import { fetchGeneration, StaleRecordError, type Fetched, type FromRecord, type Parts } from './fetch-generation.js';
import { openRepository } from './open-repository.js';
import { reapplyDeletions } from './reapply-deletions.js';
import { exposureSaid, resetExposure } from './reset-exposure.js';
import type { RestoreRequest } from './restore-request.js';
import type { RestoreProgress } from './restore-progress.js';
import { recordedGeneration, type SnapshotGeneration } from './snapshot-generations.js';
import { integrityReadOnly, sqliteStrays } from './store-checks.js';
import type { PreparedTarget } from './target-dir.js';
import { settleInOrder, verifyFile } from './verify-file.js';
import { JOURNAL_FILE, STORE_FILE } from '../files/data-dir-layout.js';

export interface StepState {
  generation: number | null;
  snapshotId: string | null;
  snapshotTime: string | null;
  secrets: SecretStore | null;
  secretsWritten: boolean;
}

export async function restoreSteps(
  req: RestoreRequest,
  target: PreparedTarget,
  checks: CheckList,
  state: StepState,
  progress: (p: RestoreProgress) => void,
): Promise<void> {
  // The workers that will hash the restored files and check the store start now, while restic
  // runs: each loads its modules (SQLite's for the checks) meanwhile instead of after it.
  const hashers = startHashWorkers(2);
  const checkers = prestartWorkers([ADMISSION_WORKER, INTEGRITY_WORKER]);
  try {
    await stepsWith(hashers.hash, req, target, checks, state, progress);
  } finally {
    hashers.close();
    checkers.close();
  }
}

async function stepsWith(
  hash: Hasher,
  req: RestoreRequest,
  target: PreparedTarget,
  checks: CheckList,
  state: StepState,
  progress: (p: RestoreProgress) => void,
): Promise<void> {
  const signal = req.signal;
  const inPlace = req.modelsInPlace ?? false;
  const cancelled = (): void => {
    if (signal?.aborted) checks.fail('restore:cancelled', say('restore.cancelled'));
  };
  // Fails now rather than after a long restore when there is no keychain to put the secrets in.
  state.secrets = await checks.run('keychain:available', async () => {
    const store = await req.secretsFor(target.path);
    await store.probe();
    return { said: say('restore.secrets_answer', { where: [whereSecrets(store)] }), value: store };
  });
  // restic's cache lives in the work folder: the restore writes nothing outside the target.
  const restic: Restic = createRestic({ binary: req.source.binary, cacheDir: join(target.work, 'cache'), ...(req.logger ? { logger: req.logger } : {}) });

  progress({ phase: 'opening' });
  const fetchOf = (x: { repo: ResticRepo; g: SnapshotGeneration }, list: CheckList, fromRecord?: FromRecord): Promise<Fetched> =>
    fetchGeneration({
      restic,
      repo: x.repo,
      g: x.g,
      work: target.work,
      inPlace,
      checks: list,
      progress,
      ...(signal ? { signal } : {}),
      ...(fromRecord ? { fromRecord } : {}),
    });
  const viaRecord = await fromRecord(req, checks, fetchOf, target.work);
  const found = viaRecord ?? (await findGeneration(restic, req, checks));
  const { repo, passphrase, g, newest } = found;
  state.generation = g.generation;
  state.snapshotId = g.snapshot_id;
  state.snapshotTime = g.time;
  cancelled();

  const { parts, vaultKey, filesDir } = viaRecord ?? (await fetchOf(found, checks));
  cancelled();

  progress({ phase: 'verifying' });
  await verifyItems(parts, filesDir, g.generation_path, inPlace, checks, hash);
  cancelled();

  // Untrusted until a worker has seen each store's schema is Sanad's own (store/untrusted-store.ts):
  // nothing below opens a store whose views or triggers a forger wrote.
  for (const item of parts.stores) {
    await checks.run(`store:sanad`, async () => {
      const file = join(filesDir, g.generation_path, item.path);
      const verdict = await admitUntrustedStore(file, { expect: item.path === STORE_FILE ? 'sanad' : 'any', ...(signal ? { signal } : {}) });
      // Its integrity_check runs once, after placement (sqlite:integrity), on the file as it will be used.
      if (verdict.ok) return { said: say('restore.store_is_sanad', { path: item.path, version: verdict.version }), value: undefined };
      if (verdict.kind === 'too_new') throw new CheckFailed(say('restore.store_newer', { path: item.path, version: verdict.version }));
      if (verdict.kind === 'damaged') throw new CheckFailed(say('restore.store_damaged', { path: item.path, problem: verdict.problem }));
      throw new CheckFailed(say('restore.store_foreign', { path: item.path, problem: verdict.problem }));
    });
  }
  cancelled();

  progress({ phase: 'assembling' });
  const placed = await checks.run('files:placed', async () => {
    const p = await placeFiles({
      filesDir,
      generationPath: g.generation_path,
      target: target.path,
      stores: parts.stores,
      models: parts.models,
      modelsInPlace: inPlace,
    });
    const params = { stores: p.stores.map((s) => s.name).join(', '), path: target.path, count: p.models.length };
    return { said: inPlace ? say('restore.placed_in_place', params) : say('restore.placed', { ...params, models: join(target.path, 'models') }), value: p };
  });

  // Models the backup kept only by their source are downloaded again and verified, then registered where they landed.
  const taken = new Set(placed.models.map((m) => m.path.split('/').pop() ?? ''));
  const pulled = await pullLeftOutModels({
    sources: parts.sources,
    target: target.path,
    taken,
    hub: await (req.hub ?? defaultHub)(),
    checks,
    ...(signal ? { signal } : {}),
  });
  placed.models.push(...pulled);

  progress({ phase: 'checking' });
  await checkRestoredStores({ placed, generationPath: g.generation_path, target: target.path, inPlace, vaultKey }, checks);

  const store = placed.stores.find((s) => s.name === STORE_FILE);
  if (store) {
    await checks.run('deletions:reapplied', async () => {
      const r = await reapplyDeletions({
        restic,
        repo,
        chosen: g,
        newest,
        liveDataDir: req.liveDataDir,
        target: target.path,
        storeFile: store.path,
        chosenJournal: parts.journal ? join(filesDir, g.generation_path, parts.journal.path) : null,
        ...(signal ? { signal } : {}),
      });
      // The store was checked once placed; only a store these deletions changed is checked again.
      if (r.applied.length > 0) await integrityReadOnly(store.path);
      const fromNewest = r.fromNewest === null ? say('restore.newest_none') : say('restore.newest_some', { entries: r.fromNewest });
      const after = say(r.applied.length > 0 ? 'restore.checked_again' : 'restore.nothing_to_change');
      return {
        said: say('restore.deletions', { count: r.applied.length, journal: r.journal, live: r.fromLive, newest: [fromNewest], after: [after] }),
        value: undefined,
      };
    });
  }

  if (store) {
    await checks.run('exposure:reset', async () => ({ said: exposureSaid(resetExposure(store.path, req.keepClients ?? false)), value: undefined }));
  }

  await checkLayout(target, placed, inPlace, checks);

  progress({ phase: 'storing_secrets' });
  await storeSecrets(state, target.path, vaultKey, passphrase, checks);
}

type Found = { repo: ResticRepo; passphrase: string; g: SnapshotGeneration; newest: SnapshotGeneration };

/**
 * The generation as this data dir recorded sending it (no `restic snapshots`, no manifest dump: one
 * restic start where there were three). Null when there is no usable record, or when restic does
 * not honour it (StaleRecordError): then nothing of the attempt is kept, and the caller asks restic.
 */
async function fromRecord(
  req: RestoreRequest,
  checks: CheckList,
  fetchOf: (x: { repo: ResticRepo; g: SnapshotGeneration }, list: CheckList, fromRecord: FromRecord) => Promise<Fetched>,
  work: string,
): Promise<(Found & Fetched) | null> {
  const passphrase = req.source.knownPassphrase;
  const copies = req.source.recorded ?? [];
  if (!passphrase || copies.length === 0) return null;
  // Only when the records account for every snapshot there (another machine's, or one whose record
  // was lost in a crash, would be missed): "newest" must stay the newest in the repository.
  const ids = (await req.source.snapshotIds?.()) ?? null;
  if (ids === null || !ids.every((id) => copies.some((c) => id.startsWith(c.snapshot_id)))) return null;
  const recorded = copies
    .filter((copy) => ids.some((id) => id.startsWith(copy.snapshot_id)))
    .map((copy) => ({ copy, g: recordedGeneration(copy, req.source.repoName) }));
  const pick = req.generation === undefined ? recorded[0] : recorded.find((r) => r.g?.generation === req.generation);
  const newest = recorded[0]?.g;
  if (!pick?.g || !newest) return null;
  const found: Found = { repo: req.source.repoFor(passphrase), passphrase, g: pick.g, newest };
  const attempt = new CheckList();
  const which = say(req.generation === undefined ? 'restore.which_newest_here' : 'restore.which_asked');
  attempt.pass(
    'snapshot:found',
    say('restore.found_record', {
      generation: pick.g.generation,
      which: [which],
      snapshot: pick.g.snapshot_id.slice(0, 8),
      time: pick.g.time,
      host: pick.g.host,
      repo: req.source.repoName,
    }),
  );
  try {
    const fetched = await fetchOf(found, attempt, { manifest: pick.copy.manifest, vaultKey: req.source.knownVaultKey ?? null });
    checks.adopt(attempt);
    return { ...found, ...fetched };
  } catch (err) {
    if (!(err instanceof StaleRecordError)) {
      checks.adopt(attempt);
      throw err;
    }
    req.logger?.info("the restore asks restic for its snapshots: this data dir's record was not usable", {
      repository: req.source.repoName,
      generation: pick.g.generation,
      reason: err.message,
    });
    await rm(join(work, 'files'), { recursive: true, force: true });
    return null;
  }
}

async function findGeneration(restic: Restic, req: RestoreRequest, checks: CheckList): Promise<Found> {
  return checks.run('snapshot:found', async () => {
    const opened = await openRepository(restic, req.source, req.signal);
    const found = req.generation === undefined ? opened.generations[0] : opened.generations.find((x) => x.generation === req.generation);
    if (!found) {
      throw new CheckFailed(
        req.generation === undefined
          ? say('restore.no_generation', { repo: req.source.repoName })
          : say('restore.generation_missing', { generation: req.generation, repo: req.source.repoName }),
      );
    }
    const which = req.generation === undefined ? say('restore.which_newest_of', { count: opened.generations.length }) : say('restore.which_asked');
    return {
      said: say('restore.found', {
        generation: found.generation,
        which: [which],
        snapshot: found.snapshot_id.slice(0, 8),
        time: found.time,
        host: found.host,
        repo: req.source.repoName,
      }),
      value: { repo: opened.repo, passphrase: opened.passphrase, g: found, newest: opened.generations[0] ?? found },
    };
  });
}

async function verifyItems(parts: Parts, filesDir: string, generationPath: string, inPlace: boolean, checks: CheckList, hash: Hasher): Promise<void> {
  const items: Array<{ name: string; verify: () => Promise<Spoken> }> = [
    ...parts.stores.map((item) => ({ name: `item:${item.path}`, verify: () => verifyFile(join(filesDir, generationPath, item.path), item, hash) })),
    ...parts.models.map((item) => ({ name: `item:${item.path}`, verify: () => verifyModel(item, filesDir, inPlace, hash) })),
    ...(parts.journal
      ? [parts.journal].map((item) => ({ name: `item:${item.path}`, verify: () => verifyFile(join(filesDir, generationPath, item.path), item, hash) }))
      : []),
  ];
  // Hashing is the long part of verifying: two files at a time, reported in manifest order.
  const verdicts = await settleInOrder(
    items.map((i) => i.verify),
    2,
  );
  for (const [i, item] of items.entries()) {
    const verdict = verdicts[i];
    await checks.run(item.name, async () => {
      if (!verdict) throw new CheckFailed(say('restore.not_verified', { item: item.name }));
      if ('error' in verdict) throw verdict.error;
      return { said: verdict.value, value: undefined };
    });
  }
}

/** The work folder goes; what stays must be exactly the data dir: no side files, nothing extra. */
async function checkLayout(target: PreparedTarget, placed: Placement, inPlace: boolean, checks: CheckList): Promise<void> {
  await checks.run('target:layout', async () => {
    await rm(target.work, { recursive: true, force: true });
    const journal = placed.stores.some((s) => s.name === STORE_FILE) ? [JOURNAL_FILE] : [];
    const modelsHere = placed.models.some((m) => m.path.startsWith(join(target.path, 'models')));
    const expected = new Set([...placed.stores.map((s) => s.name), ...journal, ...(modelsHere ? ['models'] : [])]);
    const entries = await readdir(target.path);
    const strays = await sqliteStrays(target.path);
    if (strays.length > 0) throw new CheckFailed(say('restore.side_files', { path: target.path, files: strays.join(', ') }));
    const extra = entries.filter((e) => !expected.has(e));
    const missing = [...expected].filter((e) => !entries.includes(e));
    if (extra.length > 0 || missing.length > 0) {
      const held = { path: target.path, expected: [...expected].join(', ') };
      throw new CheckFailed(
        entries.length === 0 ? say('restore.layout_wrong_empty', held) : say('restore.layout_wrong', { ...held, found: entries.join(', ') }),
      );
    }
    return { said: say('restore.layout_ok', { path: target.path, files: entries.sort().join(', ') }), value: undefined };
  });
}

/** Last: the restored dir's secrets, read back to be sure. A failure here is cleaned up by the caller. */
async function storeSecrets(state: StepState, target: string, vaultKey: Buffer, passphrase: string, checks: CheckList): Promise<void> {
  await checks.run('keychain:stored', async () => {
    const store = state.secrets;
    if (!store) throw new CheckFailed(say('restore.no_secret_store'));
    state.secretsWritten = true;
    await store.set(VAULT_KEY, vaultKey.toString('base64'));
    await store.set(RESTIC_PASSPHRASE, passphrase);
    await store.delete(VAULT_KEY_NEXT);
    const [key, pass] = [await store.get(VAULT_KEY), await store.get(RESTIC_PASSPHRASE)];
    if (key !== vaultKey.toString('base64') || pass !== passphrase) throw new CheckFailed(say('restore.secrets_not_back', { where: [whereSecrets(store)] }));
    // A file-kept restore records its file, so every command (and serving it) finds the secrets there.
    if (store.kind === 'file' && store.path !== undefined) writeSecretsLocation(target, { kind: 'file', path: store.path });
    return { said: say('restore.secrets_stored', { where: [whereSecrets(store)], path: target }), value: undefined };
  });
}

/** Where a secret store keeps the secrets, as a saying. */
function whereSecrets(store: SecretStore): Spoken {
  return store.kind === 'file' && store.path !== undefined ? say('restore.where_file', { path: store.path }) : say('restore.where_keychain');
}

async function verifyModel(item: ModelManifestItem, filesDir: string, inPlace: boolean, hash: Hasher): Promise<Spoken> {
  if (!inPlace) return verifyFile(join(filesDir, item.path), item, hash);
  try {
    return say('restore.at_original_place', { found: [await verifyFile(item.path, item, hash)] });
  } catch (err) {
    if (!(err instanceof CheckFailed)) throw err;
    throw new CheckFailed(say('restore.in_place_changed', { model: item.model_id, error: [err.said] }));
  }
}
