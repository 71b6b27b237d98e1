// The steps of one restore, each recorded as a check: find the generation (by epoch), read its
// manifest and vault key into memory, `restic restore` the rest into the work folder, verify every
// item, place the files, check each database read-only, point the registry at the restored dir,
// ask Sanad's store code where it would read, clean up, and only then store the secrets.
import { readdir, rm } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { describeManifestProblem, ManifestSchema, type Manifest, type ModelManifestItem, type SqliteManifestItem } from '../backup/generation/manifest.js';
import { createRestic, type Restic, type ResticRepo } from '../backup/restic/index.js';
import { RESTIC_PASSPHRASE, VAULT_KEY, VAULT_KEY_NEXT, type SecretStore } from '../secrets/secret-store.js';
import { placeFiles } from './assemble.js';
import { checkRestoredStores } from './check-restored.js';
import { CheckFailed, type CheckList } from './checks.js';
import { openRepository } from './open-repository.js';
import type { RestoreRequest } from './restore-generation.js';
import { watchRestoredBytes, type RestoreProgress } from './restore-progress.js';
import { generationFile, manifestPath, type SnapshotGeneration } from './snapshot-generations.js';
import { sqliteStrays } from './store-checks.js';
import type { PreparedTarget } from './target-dir.js';
import { verifyBytes, verifyFile } from './verify-file.js';

export interface StepState {
  generation: number | null;
  snapshotId: string | null;
  secrets: SecretStore | null;
  secretsWritten: boolean;
}

const MiB = 1024 * 1024;
const mib = (n: number): string => `${(n / MiB).toFixed(1)} MiB`;

export interface Parts {
  manifest: Manifest;
  manifestBytes: number;
  stores: SqliteManifestItem[];
  models: ModelManifestItem[];
  keyItem: { path: string; size: number; sha256: string };
}

function partsOf(manifest: Manifest, manifestBytes: number, g: SnapshotGeneration): Parts {
  if (manifest.generation !== g.generation) throw new CheckFailed(`The manifest says generation ${manifest.generation}, its folder in the snapshot says ${g.generation}.`);
  const keys = manifest.items.filter((i) => i.kind === 'vault_key');
  const keyItem = keys[0];
  if (!keyItem || keys.length !== 1) throw new CheckFailed(`The manifest lists ${keys.length} vault keys; a generation has exactly one.`);
  const stores = manifest.items.filter((i): i is SqliteManifestItem => i.kind === 'sqlite');
  for (const s of stores) {
    if (basename(s.path) !== s.path || s.path === '..' || s.path === '.') throw new CheckFailed(`The manifest names a database "${s.path}" outside its generation folder.`);
  }
  const models = manifest.items.filter((i): i is ModelManifestItem => i.kind === 'model');
  return { manifest, manifestBytes, stores, models, keyItem };
}

export async function restoreSteps(
  req: RestoreRequest,
  target: PreparedTarget,
  checks: CheckList,
  state: StepState,
  progress: (p: RestoreProgress) => void,
): Promise<void> {
  const signal = req.signal;
  const opt = signal ? { signal } : {};
  const inPlace = req.modelsInPlace ?? false;
  const cancelled = (): void => {
    if (signal?.aborted) checks.fail('restore:cancelled', 'The restore was cancelled.');
  };
  // Fails now rather than after a long restore when there is no keychain to put the secrets in.
  state.secrets = await checks.run('keychain:available', async () => {
    const store = await req.secretsFor(target.path);
    await store.probe();
    return { detail: `${store.description} answers.`, value: store };
  });
  // restic's cache lives in the work folder: the restore writes nothing outside the target.
  const restic: Restic = createRestic({ binary: req.source.binary, cacheDir: join(target.work, 'cache'), ...(req.logger ? { logger: req.logger } : {}) });

  progress({ phase: 'opening' });
  const { repo, passphrase, g } = await checks.run('snapshot:found', async () => {
    const opened = await openRepository(restic, req.source, signal);
    const found = req.generation === undefined ? opened.generations[0] : opened.generations.find((x) => x.generation === req.generation);
    if (!found) {
      throw new CheckFailed(req.generation === undefined
        ? `The repository "${req.source.repoName}" holds no Sanad generation yet.`
        : `Generation ${req.generation} is not in the repository "${req.source.repoName}"; \`sanad restore --list\` shows the ones there.`);
    }
    const which = req.generation === undefined ? `the newest data of ${opened.generations.length} generations` : 'as asked';
    return {
      detail: `generation ${found.generation} (${which}): snapshot ${found.snapshot_id.slice(0, 8)} taken ${found.time} on ${found.host}, repository "${req.source.repoName}".`,
      value: { repo: opened.repo, passphrase: opened.passphrase, g: found },
    };
  });
  state.generation = g.generation;
  state.snapshotId = g.snapshot_id;
  cancelled();

  progress({ phase: 'reading_manifest' });
  const parts = await checks.run('manifest:valid', async () => {
    const text = await restic.dumpText(repo, g.snapshot_id, manifestPath(g), opt);
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw new CheckFailed(`manifest.json in snapshot ${g.snapshot_id.slice(0, 8)} is not valid JSON.`);
    }
    const parsed = ManifestSchema.safeParse(json);
    if (!parsed.success) throw new CheckFailed(`manifest.json does not match the manifest format (${describeManifestProblem(parsed.error)}).`);
    const p = partsOf(parsed.data, Buffer.byteLength(text) + 1, g);
    const m = p.manifest;
    return {
      detail: `format ${m.format_version}, Sanad ${m.app_version}, host ${m.host}, made ${m.created_at}: ${p.stores.length} database(s), ${p.models.length} model(s), a vault key.`,
      value: p,
    };
  });

  const vaultKey = await checks.run(`item:${parts.keyItem.path}`, async () => {
    const text = await restic.dumpText(repo, g.snapshot_id, generationFile(g, parts.keyItem.path), { ...opt, maxBytes: 4096 });
    const detail = verifyBytes(parts.keyItem.path, Buffer.from(text, 'utf8'), parts.keyItem);
    const key = Buffer.from(text, 'base64');
    if (key.length !== 32) throw new CheckFailed(`${parts.keyItem.path} does not hold a 32-byte key.`);
    return { detail, value: key };
  });
  cancelled();

  await restoreFiles(restic, repo, g, parts, target, inPlace, checks, progress, signal);
  cancelled();

  progress({ phase: 'verifying' });
  const filesDir = join(target.work, 'files');
  for (const item of parts.stores) {
    await checks.run(`item:${item.path}`, async () => ({ detail: await verifyFile(join(filesDir, g.generation_path, item.path), item), value: undefined }));
  }
  for (const item of parts.models) {
    await checks.run(`item:${item.path}`, async () => {
      if (!inPlace) return { detail: await verifyFile(join(filesDir, item.path), item), value: undefined };
      try {
        return { detail: `at its original place: ${await verifyFile(item.path, item)}`, value: undefined };
      } catch (err) {
        if (!(err instanceof CheckFailed)) throw err;
        throw new CheckFailed(`model "${item.model_id}" kept in place (--models-in-place): ${err.detail} Put back the file the backup had, or restore without --models-in-place.`);
      }
    });
  }
  cancelled();

  progress({ phase: 'assembling' });
  const placed = await checks.run('files:placed', async () => {
    const p = await placeFiles({ filesDir, generationPath: g.generation_path, target: target.path, stores: parts.stores, models: parts.models, modelsInPlace: inPlace });
    const where = inPlace ? `${p.models.length} model(s) stay where they are` : `${p.models.length} model(s) into ${join(target.path, 'models')}`;
    return { detail: `${p.stores.map((s) => s.name).join(', ')} into ${target.path}; ${where}.`, value: p };
  });

  progress({ phase: 'checking' });
  await checkRestoredStores({ placed, generationPath: g.generation_path, target: target.path, inPlace, vaultKey }, checks);

  await checks.run('target:layout', async () => {
    await rm(target.work, { recursive: true, force: true });
    const expected = new Set([...placed.stores.map((s) => s.name), ...(!inPlace && placed.models.length > 0 ? ['models'] : [])]);
    const entries = await readdir(target.path);
    const strays = await sqliteStrays(target.path);
    if (strays.length > 0) throw new CheckFailed(`SQLite side files were left in ${target.path}: ${strays.join(', ')}.`);
    const extra = entries.filter((e) => !expected.has(e));
    const missing = [...expected].filter((e) => !entries.includes(e));
    if (extra.length > 0 || missing.length > 0) throw new CheckFailed(`${target.path} should hold ${[...expected].join(', ')}; it has ${entries.join(', ') || 'nothing'}.`);
    return { detail: `${target.path} holds ${entries.sort().join(', ')} and nothing else (no -wal/-shm/-journal, work folder removed).`, value: undefined };
  });

  progress({ phase: 'storing_secrets' });
  await checks.run('keychain:stored', async () => {
    const store = state.secrets;
    if (!store) throw new CheckFailed('No secret store was opened for the restored dir.');
    state.secretsWritten = true;
    await store.set(VAULT_KEY, vaultKey.toString('base64'));
    await store.set(RESTIC_PASSPHRASE, passphrase);
    await store.delete(VAULT_KEY_NEXT);
    const [key, pass] = [await store.get(VAULT_KEY), await store.get(RESTIC_PASSPHRASE)];
    if (key !== vaultKey.toString('base64') || pass !== passphrase) throw new CheckFailed(`${store.description} did not give back what was stored.`);
    return { detail: `the vault key and the backup passphrase are in ${store.description}, for ${target.path} only.`, value: undefined };
  });
}

async function restoreFiles(
  restic: Restic, repo: ResticRepo, g: SnapshotGeneration, parts: Parts, target: PreparedTarget, inPlace: boolean,
  checks: CheckList, progress: (p: RestoreProgress) => void, signal: AbortSignal | undefined,
): Promise<void> {
  const filesDir = join(target.work, 'files');
  const total = parts.manifestBytes + parts.stores.reduce((n, s) => n + s.size, 0) + (inPlace ? 0 : parts.models.reduce((n, m) => n + m.size, 0));
  let last = '';
  const report = (bytes: number, done = false): void => {
    const percent = done ? 1 : Math.min(0.99, bytes / total);
    const shown = done ? total : Math.min(bytes, total);
    // Polls that found nothing new are not news; the end always is.
    if (`${percent}:${shown}` === last) return;
    last = `${percent}:${shown}`;
    progress({ phase: 'restoring', percent, bytes_done: shown, bytes_total: total });
  };
  report(0);
  const exclude = [generationFile(g, parts.keyItem.path), ...(inPlace ? parts.models.map((m) => m.path) : [])];
  await checks.run('snapshot:restored', async () => {
    const stop = watchRestoredBytes(filesDir, (b) => report(b));
    try {
      await restic.restore(repo, g.snapshot_id, { target: filesDir, exclude, ...(signal ? { signal } : {}) });
    } finally {
      stop();
    }
    const kept = inPlace ? ', models left where they are' : '';
    return { detail: `restic restored ${mib(total)} into the work folder (the vault key excluded${kept}).`, value: undefined };
  });
  report(total, true);
}
