// `restore:rehearsal` (deep): the newest generation restored whole (models too, the vault key
// never) into a scratch dir, every manifest item compared by size and sha256, then the restored
// store opened with Sanad's own store code, read-only, and its LMSP tables looked for. The scratch
// dir is removed afterwards, pass or fail. This is the only drill check that reads the models.
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { VAULT_KEY_FILE, type Manifest } from '../../backup/generation/index.js';
import { sha256File } from '../../engine/hash-file.js';
import { generationFile, type SnapshotGeneration } from '../../restore/snapshot-generations.js';
import { currentVersion, latestVersion } from '../../store/migrate.js';
import { openStore, storePath } from '../../store/open.js';
import { admitUntrustedStore } from '../../store/untrusted-store.js';
import { resticOutcome } from '../restic-outcome.js';
import { withScratch } from '../scratch.js';
import { fail, pass, unverified, type CheckOutcome } from '../verdict.js';
import { itemPath } from './manifest.js';
import { signalOf, type RepoContext } from './repo-context.js';

/** The tables a usable Sanad store has (LMSP core and the vault); later ones are optional here. */
export const REQUIRED_TABLES = ['service_config', 'clients', 'models', 'responses', 'tasks', 'task_events', 'idempotency_keys', 'vault'] as const;

export async function checkRestoreRehearsal(ctx: RepoContext, g: SnapshotGeneration, manifest: Manifest): Promise<CheckOutcome> {
  return withScratch(ctx.deps.dataDir, async (scratch) => {
    try {
      await ctx.restic.restore(ctx.target, g.snapshot_id, { target: scratch, exclude: [generationFile(g, VAULT_KEY_FILE)], ...signalOf(ctx) });
    } catch (error) {
      return resticOutcome(error, { doing: `Restoring generation ${g.generation}`, hadBackups: ctx.hadBackups });
    }
    let bytes = 0;
    // A model kept only by its source is not in the snapshot; the rehearsal does not download it.
    const items = manifest.items.filter((i) => i.kind !== 'vault_key' && i.kind !== 'model_source');
    for (const item of items) {
      const local = join(scratch, itemPath(g, item));
      const info = await stat(local).catch(() => null);
      if (!info?.isFile()) return fail(`the restore of generation ${g.generation} has no ${item.path}.`);
      const hashed = await sha256File(local);
      if (hashed.bytes !== item.size || hashed.sha256 !== item.sha256) return fail(`${item.path} restored from generation ${g.generation} differs from its manifest (sha256 or size).`);
      bytes += hashed.bytes;
    }
    const dir = join(scratch, g.generation_path);
    // Untrusted until a worker has seen its schema is Sanad's own (store/untrusted-store.ts).
    const admitted = await admitUntrustedStore(storePath(dir), signalOf(ctx));
    if (!admitted.ok && admitted.kind === 'too_new') return unverified(`the store in generation ${g.generation} was written by a newer Sanad (store version ${admitted.version}); restore it with that version.`);
    if (!admitted.ok) return fail(`the store restored from generation ${g.generation} is ${admitted.kind === 'not_sanad' ? 'not a Sanad store' : 'damaged'}: ${admitted.problem}.`);
    return openRestored(dir, g.generation, items.length, bytes);
  });
}

function openRestored(dir: string, generation: number, files: number, bytes: number): CheckOutcome {
  let db: ReturnType<typeof openStore>;
  try {
    db = openStore(storePath(dir), { readonly: true });
  } catch (error) {
    return fail(`Sanad could not open the store restored from generation ${generation}: ${error instanceof Error ? error.message : String(error)}`);
  }
  try {
    const version = currentVersion(db);
    const names = new Set(db.prepare<[], { name: string }>("SELECT name FROM sqlite_schema WHERE type = 'table'").all().map((r) => r.name));
    const missing = REQUIRED_TABLES.filter((t) => !names.has(t));
    if (missing.length > 0) return fail(`the store restored from generation ${generation} lacks the table(s) ${missing.join(', ')}.`);
    if (version > latestVersion()) return unverified(`the store in generation ${generation} was written by a newer Sanad (store version ${version}); restore it with that version.`);
    const mb = (bytes / 1024 / 1024).toFixed(1);
    return pass(`restored generation ${generation} into scratch (${files} file(s), ${mb} MiB, the vault key left out); every sha256 matches; Sanad opened the store (version ${version}) and found its tables`);
  } finally {
    db.close();
  }
}
