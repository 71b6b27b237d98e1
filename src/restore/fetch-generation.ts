// Getting a generation out of restic with as few restic runs as possible (each pays its own start
// and key derivation, ~0.5 s): the manifest and the vault key are read into memory while `restic
// restore` already writes everything else (the vault key excluded by path) into the work folder.
// A manifest or key that fails its check stops the restore and waits for every restic to exit,
// so nothing writes into a target that is being put back.
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import {
  describeManifestProblem,
  ManifestSchema,
  type JournalManifestItem,
  type Manifest,
  type ModelManifestItem,
  type ModelSourceManifestItem,
  type SqliteManifestItem,
} from '../repository/generation/manifest.js';
import { VAULT_KEY_FILE } from '../repository/generation/vault-key-file.js';
import { ResticError, type Restic, type ResticRepo } from '../repository/restic/index.js';
import { say } from '../contract/said/index.js';
import { CheckFailed, type CheckList } from './checks.js';
import { RestoreMeter, watchRestoredBytes, type RestoreProgress } from './restore-progress.js';
import { generationFile, manifestPath, type SnapshotGeneration } from './snapshot-generations.js';
import { verifyBytes, type Settled } from './verify-file.js';
import { JOURNAL_FILE } from '../files/data-dir-layout.js';

export interface Parts {
  manifest: Manifest;
  manifestBytes: number;
  stores: SqliteManifestItem[];
  models: ModelManifestItem[];
  /** Pulled models the backup kept only by their source: downloaded again by the restore. */
  sources: ModelSourceManifestItem[];
  keyItem: { path: string; size: number; sha256: string };
  /** The deletion journal the generation carries; null in generations made before it existed. */
  journal: JournalManifestItem | null;
}

export interface Fetched {
  parts: Parts;
  vaultKey: Buffer;
  /** restic's restore target: every file at its original absolute path below it. */
  filesDir: string;
}

export interface FetchInput {
  restic: Restic;
  repo: ResticRepo;
  g: SnapshotGeneration;
  work: string;
  inPlace: boolean;
  checks: CheckList;
  progress: (p: RestoreProgress) => void;
  signal?: AbortSignal;
}

function settle<T>(p: Promise<T>): Promise<Settled<T>> {
  return p.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );
}

function partsOf(manifest: Manifest, manifestBytes: number, g: SnapshotGeneration): Parts {
  if (manifest.generation !== g.generation)
    throw new CheckFailed(say('restore.manifest_generation', { manifest: manifest.generation, generation: g.generation }));
  const keys = manifest.items.filter((i) => i.kind === 'vault_key');
  const keyItem = keys[0];
  if (!keyItem || keys.length !== 1) throw new CheckFailed(say('restore.manifest_keys', { count: keys.length }));
  if (keyItem.path !== VAULT_KEY_FILE) throw new CheckFailed(say('restore.manifest_key_name', { path: keyItem.path, expected: VAULT_KEY_FILE }));
  const stores = manifest.items.filter((i): i is SqliteManifestItem => i.kind === 'sqlite');
  for (const s of stores) {
    if (basename(s.path) !== s.path || s.path === '..' || s.path === '.') throw new CheckFailed(say('restore.manifest_db_outside', { path: s.path }));
  }
  const models = manifest.items.filter((i): i is ModelManifestItem => i.kind === 'model');
  const sources = manifest.items.filter((i): i is ModelSourceManifestItem => i.kind === 'model_source');
  const journals = manifest.items.filter((i): i is JournalManifestItem => i.kind === 'journal');
  if (journals.length > 1) throw new CheckFailed(say('restore.manifest_journals', { count: journals.length }));
  const journal = journals[0] ?? null;
  if (journal && journal.path !== JOURNAL_FILE) throw new CheckFailed(say('restore.manifest_journal_name', { path: journal.path, expected: JOURNAL_FILE }));
  return { manifest, manifestBytes, stores, models, sources, keyItem, journal };
}

export function parseManifest(text: string, g: SnapshotGeneration): Parts {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new CheckFailed(say('restore.manifest_not_json', { snapshot: g.snapshot_id.slice(0, 8) }));
  }
  const parsed = ManifestSchema.safeParse(json);
  if (!parsed.success) throw new CheckFailed(say('restore.manifest_format', { problem: describeManifestProblem(parsed.error) }));
  return partsOf(parsed.data, Buffer.byteLength(text) + 1, g);
}

/** This data dir's record of the generation (backup-runs.ts) and its own vault key, when it has them. */
export interface FromRecord {
  manifest: string;
  /** The live vault key: used when it is the generation's (same sha256 as its vault.key). */
  vaultKey: Buffer | null;
}

/** restic does not know the recorded snapshot (forgotten, or a repository replaced under the same
 *  name), or refuses the passphrase: the record cannot be used; ask restic for its list instead. */
export class StaleRecordError extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'StaleRecordError';
  }
}

/** The vault key of any generation, at any depth: `<data-dir>/backups/staging/<epoch>/vault.key`. */
const ANY_VAULT_KEY = `backups/staging/*/${VAULT_KEY_FILE}`;

const STALE_ID = /no matching ID found|multiple IDs with prefix/i;

function staleReason(err: unknown): string | null {
  if (!(err instanceof ResticError)) return null;
  if (err.kind === 'wrong_password') return 'the passphrase does not open the repository';
  return STALE_ID.test([err.message, ...err.stderrTail].join('\n')) ? 'restic does not know the recorded snapshot' : null;
}

function throwIfStale(outcome: Settled<unknown> | null): void {
  const stale = outcome && 'error' in outcome ? staleReason(outcome.error) : null;
  if (stale) throw new StaleRecordError(stale);
}

/** The live key, as the key file a generation holds would read: usable when the manifest says so. */
function liveKeyFits(key: Buffer | null, item: Parts['keyItem']): key is Buffer {
  if (!key) return false;
  const text = Buffer.from(key.toString('base64'), 'utf8');
  return text.length === item.size && createHash('sha256').update(text).digest('hex') === item.sha256;
}

export async function fetchGeneration(f: FetchInput & { fromRecord?: FromRecord }): Promise<Fetched> {
  const { restic, repo, g, checks } = f;
  const filesDir = join(f.work, 'files');
  const abort = new AbortController();
  const onAbort = (): void => abort.abort();
  f.signal?.addEventListener('abort', onAbort, { once: true });
  const opt = { signal: abort.signal };
  const meter = new RestoreMeter(f.progress);
  const stopWatching = watchRestoredBytes(filesDir, (b) => meter.bytes(b));
  // Models kept in place are every snapshot path besides the generation folder.
  const exclude = [generationFile(g, VAULT_KEY_FILE), ...(f.inPlace ? g.paths.filter((p) => p !== g.generation_path) : [])];
  // Any generation's vault key, too, by pattern: a snapshot that is not the one `g` describes (a
  // record gone wrong) must not put its key on disk before the mismatch is found.
  const restored = settle(restic.restore(repo, g.snapshot_id, { target: filesDir, exclude, excludePatterns: [ANY_VAULT_KEY], ...opt }));
  // From a record, the manifest is known now and restic starts once; the key is dumped (a second
  // restic, alongside) only when the live one is not the generation's.
  const recorded = f.fromRecord ? recordedManifest(f.fromRecord.manifest, g) : null;
  const known = f.fromRecord?.vaultKey ?? null;
  const keyDump =
    recorded && liveKeyFits(known, recorded.keyItem)
      ? null
      : settle(restic.dumpText(repo, g.snapshot_id, generationFile(g, VAULT_KEY_FILE), { ...opt, maxBytes: 4096 }));
  try {
    f.progress({ phase: 'reading_manifest' });
    if (f.fromRecord && !recorded) throw new StaleRecordError("the recorded manifest does not read as this generation's");
    const parts = await checks.run('manifest:valid', async () => {
      const p = recorded ?? parseManifest(await restic.dumpText(repo, g.snapshot_id, manifestPath(g), opt), g);
      const m = p.manifest;
      const params = {
        format: m.format_version,
        version: m.app_version,
        host: m.host,
        time: m.created_at,
        contents: [say('restore.n_databases', { count: p.stores.length }), say('restore.n_models', { count: p.models.length }), say('restore.a_vault_key')],
      };
      return { said: say(recorded ? 'restore.manifest_ok_record' : 'restore.manifest_ok', params), value: p };
    });
    const dumped = keyDump ? await keyDump : null;
    // A record restic cannot honour is not a failed restore: the caller asks restic instead.
    if (f.fromRecord) throwIfStale(dumped);
    const vaultKey = await checks.run(`item:${VAULT_KEY_FILE}`, async () => {
      if (dumped === null && known) {
        return { said: say('restore.key_known', { size_bytes: parts.keyItem.size, sha256: parts.keyItem.sha256.slice(0, 12) }), value: Buffer.from(known) };
      }
      if (dumped === null) throw new CheckFailed(say('restore.key_not_read'));
      if ('error' in dumped) throw dumped.error;
      const said = verifyBytes(VAULT_KEY_FILE, Buffer.from(dumped.value, 'utf8'), parts.keyItem);
      const key = Buffer.from(dumped.value, 'base64');
      if (key.length !== 32) throw new CheckFailed(say('restore.key_size', { path: VAULT_KEY_FILE }));
      return { said, value: key };
    });
    const total =
      parts.manifestBytes +
      (parts.journal?.size ?? 0) +
      parts.stores.reduce((n, s) => n + s.size, 0) +
      (f.inPlace ? 0 : parts.models.reduce((n, m) => n + m.size, 0));
    meter.start(total);
    const outcome = await restored;
    if (f.fromRecord) throwIfStale(outcome);
    await checks.run('snapshot:restored', async () => {
      if ('error' in outcome) throw outcome.error;
      return { said: say(f.inPlace ? 'restore.restic_restored_in_place' : 'restore.restic_restored', { size_bytes: total }), value: undefined };
    });
    if (f.fromRecord) await sameAsRecorded(join(filesDir, manifestPath(g)), f.fromRecord.manifest);
    meter.done();
    return { parts, vaultKey, filesDir };
  } catch (err) {
    abort.abort();
    await Promise.all([restored, keyDump]);
    throw err;
  } finally {
    stopWatching();
    f.signal?.removeEventListener('abort', onAbort);
  }
}

/** The recorded manifest as this generation's parts; null when it does not read as them. */
function recordedManifest(text: string, g: SnapshotGeneration): Parts | null {
  try {
    return parseManifest(text, g);
  } catch (err) {
    if (err instanceof CheckFailed) return null;
    throw err;
  }
}

/** The snapshot's manifest.json must be the one recorded; a different one means the record named
 *  another snapshot (a short id that now matches something else): ask restic for its list. */
async function sameAsRecorded(path: string, recorded: string): Promise<void> {
  const text = await readFile(path, 'utf8').catch(() => null);
  if (text !== recorded) throw new StaleRecordError('the restored manifest.json is not the one recorded');
}
