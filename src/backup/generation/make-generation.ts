// One generation: a consistent copy of the store, the vault key and a manifest, built in
// `<epoch>.partial` and renamed to `<epoch>` only when every byte is on disk. A crash at any point
// leaves at most a `.partial`, which nothing lists and the next run removes.
import { mkdir, rename, rm } from 'node:fs/promises';
import { hostname } from 'node:os';
import { dirname, join } from 'node:path';
import { unixSeconds, type Clock } from '../../clock.js';
import { sha256File, sha256FileInWorker } from '../../files/hash-file.js';
import { DeletionJournal, parseJournal } from '../../store/deletion-journal.js';
import { type Db } from '../../store/open.js';
import { fsyncPath, writeNewFileDurable } from '../../repository/generation/durable.js';
import { MANIFEST_FILE, MANIFEST_FORMAT_VERSION, manifestText, type Manifest, type ManifestItem } from '../../repository/generation/manifest.js';
import { modelItems } from './model-items.js';
import { highestEpoch, listPartials, PARTIAL_SUFFIX, type Generation } from './staging.js';
import { checkVaultInCopy, copyStore, scrubStoreCopy } from './store-copy.js';
import { rememberCopy, reuseCopy } from './reuse-copy.js';
import { contentMark } from '../../store/content-mark.js';
import { VAULT_KEY_FILE, writeVaultKey } from '../../repository/generation/vault-key-file.js';
import { JOURNAL_FILE, STORE_FILE, stagingDir } from '../../files/data-dir-layout.js';

export type GenerationStep =
  | 'preparing'
  | 'reusing_store'
  | 'copying_store'
  | 'checking_store'
  | 'vault_key'
  | 'models'
  | 'rehashing_model'
  | 'hashing'
  | 'manifest'
  | 'renaming'
  | 'done';

export interface GenerationProgress {
  step: GenerationStep;
  epoch: number;
  /** copying_store: pages copied so far and in all. */
  done?: number;
  total?: number;
  /** rehashing_model: which model changed on disk since it was registered. */
  modelId?: string;
}

export interface MakeGenerationOptions {
  dataDir: string;
  /** The service's own connection: writes through it during the copy land in the copy too. */
  db: Db;
  vaultKey: Buffer;
  clock: Clock;
  appVersion: string;
  /** Called synchronously at each step; it must not throw. */
  onProgress?: (p: GenerationProgress) => void;
}

export interface GenerationResult extends Generation {
  /** Models whose size or mtime no longer matched the registry, so this run hashed them again. */
  rehashedModels: string[];
  /** Registered models whose file is gone; they are not in this generation. */
  missingModels: string[];
  /** Registered models whose file changed (size or fingerprint); left out of this generation. */
  changedModels: string[];
  /** 'damaged': a vault value does not open with the right key (captured as is, for the drill to name). */
  vault: 'ok' | 'empty' | 'damaged';
  /** Leftover `.partial` folders of earlier runs that this run removed. */
  removedPartials: string[];
}

/**
 * The store copied, cleaned and checked in workers; then a worker hashes it while this thread
 * checks the vault key in it (a few rows; a failure drops the worker's result).
 */
async function freshCopy(
  source: string,
  storeCopy: string,
  report: (p: Omit<GenerationProgress, 'epoch'>) => void,
): Promise<{ tables: number; storeHash: Promise<{ sha256: string; bytes: number }> }> {
  await copyStore(source, storeCopy, (c) => report({ step: 'copying_store', done: c.copiedPages, total: c.totalPages }));
  report({ step: 'checking_store' });
  // Cleaned and integrity-checked in a worker (a check that fails removes the folder).
  const { tables } = await scrubStoreCopy(storeCopy);
  const storeHash = sha256FileInWorker(storeCopy);
  storeHash.catch(() => undefined);
  return { tables, storeHash };
}

/** Call only under the backup lock (run-backup.ts): two makers would remove each other's `.partial`. */
export async function makeGeneration(options: MakeGenerationOptions): Promise<GenerationResult> {
  const staging = stagingDir(options.dataDir);
  const { db, vaultKey, clock } = options;
  // 0700: a generation holds the vault key until its snapshots are made.
  const created = await mkdir(staging, { recursive: true, mode: 0o700 });
  // First run: the new folder names must be durable too, or a power cut could lose all of staging.
  if (created !== undefined) for (const dir of [options.dataDir, dirname(staging), staging]) await fsyncPath(dir);
  // Names stay unique and increasing even when two runs fall in one second or the clock stepped
  // back; counted before leftovers go, so not even a crashed run's name is used twice.
  const epoch = Math.max(unixSeconds(clock), (await highestEpoch(options.dataDir)) + 1);
  const removedPartials = await listPartials(options.dataDir);
  for (const dir of removedPartials) await rm(dir, { recursive: true, force: true });
  const report = (p: Omit<GenerationProgress, 'epoch'>): void => options.onProgress?.({ ...p, epoch });
  report({ step: 'preparing' });
  const partial = join(staging, `${epoch}${PARTIAL_SUFFIX}`);
  await mkdir(partial, { mode: 0o700 });
  try {
    const storeCopy = join(partial, STORE_FILE);
    const mark = contentMark(db);
    // A store with nothing new since the last generation keeps that generation's copy (reuse-copy.ts).
    const reused = await reuseCopy(db, mark, vaultKey, storeCopy);
    if (reused) report({ step: 'reusing_store' });
    const { tables, storeHash } = reused ?? (await freshCopy(db.name, storeCopy, report));
    const vault = checkVaultInCopy(storeCopy, vaultKey);
    await fsyncPath(storeCopy);

    report({ step: 'vault_key' });
    const keyPath = await writeVaultKey(partial, vaultKey);
    // After the store copy: a deletion journalled meanwhile is in the copy of the journal too, so
    // the journal always covers the store it travels with.
    const journalBytes = DeletionJournal.of(options.dataDir).bytes() ?? Buffer.alloc(0);
    const journalCopy = join(partial, JOURNAL_FILE);
    await writeNewFileDurable(journalCopy, journalBytes, 0o600);

    report({ step: 'models' });
    const models = await modelItems(db, (modelId) => report({ step: 'rehashing_model', modelId }));

    report({ step: 'hashing' });
    const [store, key, journal] = await Promise.all([storeHash, sha256File(keyPath), sha256File(journalCopy)]);
    const items: ManifestItem[] = [
      { kind: 'sqlite', path: STORE_FILE, size: store.bytes, sha256: store.sha256, tables },
      { kind: 'vault_key', path: VAULT_KEY_FILE, size: key.bytes, sha256: key.sha256 },
      { kind: 'journal', path: JOURNAL_FILE, size: journal.bytes, sha256: journal.sha256, entries: parseJournal(journalBytes.toString('utf8')).length },
      ...models.items,
    ];
    const manifest: Manifest = {
      format_version: MANIFEST_FORMAT_VERSION,
      app_version: options.appVersion,
      generation: epoch,
      created_at: new Date(clock.now()).toISOString(),
      host: hostname(),
      items,
    };
    report({ step: 'manifest' });
    await writeNewFileDurable(join(partial, MANIFEST_FILE), manifestText(manifest), 0o600);

    report({ step: 'renaming' });
    const dir = join(staging, String(epoch));
    await fsyncPath(partial);
    await rename(partial, dir);
    // The rename is what makes the generation whole; it must be on disk before anyone relies on it.
    await fsyncPath(staging);
    await fsyncPath(dir);
    rememberCopy(db, { mark, path: join(dir, STORE_FILE), sha256: store.sha256, tables, vaultKey });
    report({ step: 'done' });
    return { epoch, dir, manifest, rehashedModels: models.rehashed, missingModels: models.missing, changedModels: models.changed, vault, removedPartials };
  } catch (err) {
    // A failed run leaves nothing behind (a crash leaves the `.partial`, which the next run removes).
    await rm(partial, { recursive: true, force: true }).catch(() => undefined);
    throw err;
  }
}
