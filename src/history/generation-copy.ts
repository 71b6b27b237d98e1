// Looking inside a generation without restoring it: its manifest read into memory, its store
// alone restored by restic (read-only, `--no-lock`: nothing is ever written to the repository)
// into a private scratch folder (0700) under `<data-dir>/history/`, checked against the manifest,
// admitted as a Sanad store by a worker (store/untrusted-store.ts: its schema exactly Sanad's, so no
// view or trigger of a forger's runs here), migrated there if an older Sanad made it, and opened
// with Sanad's own store code with `query_only` on. The caller closes it; closing removes the scratch folder.
import { mkdir, mkdtemp, readdir, readFile, rename } from 'node:fs/promises';
import { join } from 'node:path';
import { fsyncPath } from '../repository/generation/durable.js';
import { MANIFEST_FORMAT_VERSION } from '../repository/generation/manifest.js';
import type { Restic, ResticRepo } from '../repository/restic/index.js';
import type { InspectProgress } from '../contract/history.js';
import { removeTree } from '../drill/scratch.js';
import { CheckFailed } from '../restore/checks.js';
import { parseManifest, type Parts } from '../restore/fetch-generation.js';
import { watchRestoredBytes } from '../restore/restore-progress.js';
import { generationFile, manifestPath, type SnapshotGeneration } from '../restore/snapshot-generations.js';
import { verifyFile } from '../restore/verify-file.js';
import { parseJournal, type Deletion } from '../store/deletion-journal.js';
import { StoreTooNewError } from '../store/migrate.js';
import { admitUntrustedStore } from '../store/untrusted-store.js';
import { openStore, type ReadableDB, type WritableDB } from '../store/open.js';
import { JOURNAL_FILE, STORE_FILE, historyDir } from '../files/data-dir-layout.js';

export const SCRATCH_PREFIX = 'scratch-';

/** Scratch folders left by a process that died; call before any generation is opened. */
export async function removeLeftoverHistoryScratch(dataDir: string): Promise<number> {
  const names = await readdir(historyDir(dataDir)).catch(() => []);
  const doomed = names.filter((n) => n.startsWith(SCRATCH_PREFIX));
  for (const n of doomed) await removeTree(join(historyDir(dataDir), n));
  return doomed.length;
}

export class GenerationTooNewError extends Error {
  constructor(generation: number, what: string) {
    super(`Generation ${generation} was made by a newer Sanad (${what}); install that Sanad (or a newer one) to look inside it.`);
    this.name = 'GenerationTooNewError';
  }
}

export class GenerationUnreadableError extends Error {
  constructor(generation: number, why: string) {
    super(`Generation ${generation} cannot be read: ${why} Run \`sanad drill --deep\` to check the repository.`);
    this.name = 'GenerationUnreadableError';
  }
}

/** The generation's store is not a Sanad store (a forged or foreign file): nothing of it is read. */
export class GenerationNotSanadError extends Error {
  constructor(generation: number, why: string) {
    super(
      `Generation ${generation} does not hold a Sanad store: ${why}. Nothing of it was read; if you did not make this backup, someone else wrote to the repository: check who can reach it.`,
    );
    this.name = 'GenerationNotSanadError';
  }
}

export interface OpenedGeneration {
  g: SnapshotGeneration;
  parts: Parts;
  db: ReadableDB;
  /** The store's schema version as backed up. */
  storeVersion: number;
  /** The generation's own deletion journal (empty for generations made before it existed). */
  journal: Deletion[];
  /** The scratch folder (for tests and the log). */
  scratch: string;
  close(): Promise<void>;
}

async function readManifest(restic: Restic, repo: ResticRepo, g: SnapshotGeneration, signal?: AbortSignal): Promise<Parts> {
  const text = await restic.dumpText(repo, g.snapshot_id, manifestPath(g), signal ? { signal } : {});
  let version: unknown;
  try {
    const json: unknown = JSON.parse(text);
    version = typeof json === 'object' && json !== null && 'format_version' in json ? json.format_version : undefined;
  } catch {
    version = undefined;
  }
  if (typeof version === 'number' && version > MANIFEST_FORMAT_VERSION)
    throw new GenerationTooNewError(g.generation, `manifest format ${version}; this Sanad reads ${MANIFEST_FORMAT_VERSION}`);
  try {
    return parseManifest(text, g);
  } catch (err) {
    if (err instanceof CheckFailed) throw new GenerationUnreadableError(g.generation, err.detail);
    throw err;
  }
}

export async function openGenerationCopy(input: {
  restic: Restic;
  repo: ResticRepo;
  g: SnapshotGeneration;
  dataDir: string;
  onProgress?: (p: InspectProgress) => void;
  signal?: AbortSignal;
}): Promise<OpenedGeneration> {
  const { restic, repo, g, signal } = input;
  const progress = (p: InspectProgress): void => {
    try {
      input.onProgress?.(p);
    } catch {
      // A broken listener must not stop the read.
    }
  };
  await mkdir(historyDir(input.dataDir), { recursive: true, mode: 0o700 });
  const scratch = await mkdtemp(join(historyDir(input.dataDir), SCRATCH_PREFIX));
  let db: WritableDB | null = null;
  try {
    // One restic run restores the store (and the journal, when the generation has one) while a
    // second reads the manifest into memory: each run pays its own start and key derivation.
    const files = join(scratch, 'files');
    const abort = new AbortController();
    const onAbort = (): void => abort.abort();
    signal?.addEventListener('abort', onAbort, { once: true });
    const include = [generationFile(g, STORE_FILE), generationFile(g, JOURNAL_FILE)];
    const restoring = restic.restore(repo, g.snapshot_id, { target: files, include, signal: abort.signal }).then(
      () => null,
      (error: unknown) => ({ error }),
    );
    let stop = (): void => undefined;
    const { parts, item, total } = await (async () => {
      try {
        progress({ phase: 'manifest' });
        const p = await readManifest(restic, repo, g, abort.signal);
        const store = p.stores.find((x) => x.path === STORE_FILE);
        if (!store) throw new GenerationUnreadableError(g.generation, `its manifest lists no ${STORE_FILE}.`);
        const bytes = store.size + (p.journal?.size ?? 0);
        progress({ phase: 'downloading', bytes_done: 0, bytes_total: bytes });
        stop = watchRestoredBytes(files, (done) => progress({ phase: 'downloading', bytes_done: Math.min(done, bytes), bytes_total: bytes }));
        const failed = await restoring;
        if (failed) throw failed.error;
        return { parts: p, item: store, total: bytes };
      } catch (err) {
        abort.abort();
        await restoring;
        throw err;
      } finally {
        stop();
        signal?.removeEventListener('abort', onAbort);
      }
    })();
    progress({ phase: 'downloading', bytes_done: total, bytes_total: total });
    progress({ phase: 'verifying' });
    const restored = join(files, g.generation_path, STORE_FILE);
    try {
      await verifyFile(restored, item);
      if (parts.journal) await verifyFile(join(files, g.generation_path, parts.journal.path), parts.journal);
    } catch (err) {
      if (err instanceof CheckFailed) throw new GenerationUnreadableError(g.generation, err.detail);
      throw err;
    }
    const journal = parts.journal ? parseJournal(await readFile(join(files, g.generation_path, parts.journal.path), 'utf8')) : [];
    const storeFile = join(scratch, STORE_FILE);
    await rename(restored, storeFile);
    await removeTree(files);
    progress({ phase: 'opening' });
    // Untrusted until a worker has seen its schema is Sanad's own (untrusted-store.ts says why).
    const admitted = await admitUntrustedStore(storeFile, signal ? { signal } : {});
    if (!admitted.ok) {
      if (admitted.kind === 'too_new') throw new GenerationTooNewError(g.generation, `store version ${admitted.version}`);
      if (admitted.kind === 'damaged') throw new GenerationUnreadableError(g.generation, `its store is damaged (${admitted.problem}).`);
      throw new GenerationNotSanadError(g.generation, admitted.problem);
    }
    const storeVersion = admitted.version;
    // restic has just written the copy: switching it to WAL fsyncs it, which on a 400 MiB store
    // held the event loop a third of a second. Flushed first on the thread pool, that costs nothing.
    await fsyncPath(storeFile);
    try {
      // Sanad's own store code: an older store is migrated here, in the private copy only.
      db = openStore(storeFile);
    } catch (err) {
      if (err instanceof StoreTooNewError) throw new GenerationTooNewError(g.generation, `store version ${storeVersion}`);
      throw err;
    }
    db.pragma('query_only = ON');
    db.pragma('trusted_schema = OFF');
    const opened = db;
    return {
      g,
      parts,
      db: opened,
      storeVersion,
      journal,
      scratch,
      close: async () => {
        opened.close();
        await removeTree(scratch);
      },
    };
  } catch (err) {
    db?.close();
    await removeTree(scratch);
    throw err;
  }
}
