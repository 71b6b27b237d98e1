// `restore:rehearsal` (deep): the newest generation restored whole (models too, the vault key
// never) into a scratch dir, every manifest item compared by size and sha256, then the restored
// store opened with Sanad's own store code, read-only, and its LMSP tables looked for. The scratch
// dir is removed afterwards, pass or fail. This is the only drill check that reads the models.
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { sha256File } from '../../files/hash-file.js';
import { generationFile, type SnapshotGeneration } from '../../restore/snapshot-generations.js';
import { currentVersion, latestVersion } from '../../store/migrate.js';
import { openStore } from '../../store/open.js';
import { admitUntrustedStore } from '../../store/untrusted-store.js';
import { say } from '../../contract/said/index.js';
import { errorParam } from '../../contract/said.js';
import { resticOutcome } from '../restic-outcome.js';
import { withScratch } from '../scratch.js';
import { fail, pass, unverified, type CheckOutcome } from '../verdict.js';
import { itemPath } from './manifest.js';
import { signalOf, type RepoContext } from './repo-context.js';
import { storePath } from '../../files/data-dir-layout.js';
import { VAULT_KEY_FILE } from '../../repository/generation/vault-key-file.js';
import { type Manifest } from '../../repository/generation/manifest.js';

/** The tables a usable Sanad store has (LMSP core and the vault); later ones are optional here. */
export const REQUIRED_TABLES = ['service_config', 'clients', 'models', 'responses', 'tasks', 'task_events', 'idempotency_keys', 'vault'] as const;

export async function checkRestoreRehearsal(ctx: RepoContext, g: SnapshotGeneration, manifest: Manifest): Promise<CheckOutcome> {
  return withScratch(ctx.deps.dataDir, async (scratch) => {
    try {
      await ctx.restic.restore(ctx.target, g.snapshot_id, { target: scratch, exclude: [generationFile(g, VAULT_KEY_FILE)], ...signalOf(ctx) });
    } catch (error) {
      return resticOutcome(error, { doing: say('drill.doing_generation', { generation: g.generation }), hadBackups: ctx.hadBackups });
    }
    let bytes = 0;
    // A model kept only by its source is not in the snapshot; the rehearsal does not download it.
    const items = manifest.items.filter((i) => i.kind !== 'vault_key' && i.kind !== 'model_source');
    for (const item of items) {
      const local = join(scratch, itemPath(g, item));
      const info = await stat(local).catch(() => null);
      if (!info?.isFile()) return fail(say('drill.rehearsal.no_file', { generation: g.generation, path: item.path }));
      const hashed = await sha256File(local);
      if (hashed.bytes !== item.size || hashed.sha256 !== item.sha256)
        return fail(say('drill.rehearsal.differs', { generation: g.generation, path: item.path }));
      bytes += hashed.bytes;
    }
    const dir = join(scratch, g.generation_path);
    // Untrusted until a worker has seen its schema is Sanad's own (store/untrusted-store.ts).
    const admitted = await admitUntrustedStore(storePath(dir), signalOf(ctx));
    if (!admitted.ok && admitted.kind === 'too_new') return unverified(say('drill.rehearsal.too_new', { generation: g.generation, version: admitted.version }));
    if (!admitted.ok)
      return fail(
        say(admitted.kind === 'not_sanad' ? 'drill.rehearsal.not_sanad' : 'drill.rehearsal.damaged', { generation: g.generation, problem: admitted.problem }),
      );
    return openRestored(dir, g.generation, items.length, bytes);
  });
}

function openRestored(dir: string, generation: number, files: number, bytes: number): CheckOutcome {
  let db: ReturnType<typeof openStore>;
  try {
    db = openStore(storePath(dir), { readonly: true });
  } catch (error) {
    return fail(say('drill.rehearsal.unopened', { generation, error: errorParam(error) }));
  }
  try {
    const version = currentVersion(db);
    const names = new Set(
      db
        .prepare<[], { name: string }>("SELECT name FROM sqlite_schema WHERE type = 'table'")
        .all()
        .map((r) => r.name),
    );
    const missing = REQUIRED_TABLES.filter((t) => !names.has(t));
    if (missing.length > 0) return fail(say('drill.rehearsal.lacks_tables', { generation, tables: missing.join(', ') }));
    if (version > latestVersion()) return unverified(say('drill.rehearsal.too_new', { generation, version }));
    return pass(say('drill.rehearsal.ok', { generation, count: files, total_bytes: bytes, version }));
  } finally {
    db.close();
  }
}
