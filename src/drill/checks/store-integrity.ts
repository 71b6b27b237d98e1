// `sqlite:integrity`: each database of the generation, restored alone into the drill's scratch dir,
// has the manifest's size and sha256, is a Sanad store (its schema exactly a known version's, looked
// at in a worker: store/untrusted-store.ts), passes `PRAGMA integrity_check`, and has as
// many tables as the manifest recorded; zero tables is damage unless the source had none.
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { sha256File } from '../../files/hash-file.js';
import { generationFile, type SnapshotGeneration } from '../../restore/snapshot-generations.js';
import { say } from '../../contract/said/index.js';
import type { Said } from '../../contract/said.js';
import { resticOutcome } from '../restic-outcome.js';
import { fail, pass, unverified, type CheckOutcome } from '../verdict.js';
import { signalOf, type RepoContext } from './repo-context.js';
import { admitUntrustedStore } from '../../store/untrusted-store.js';
import { STORE_FILE } from '../../files/data-dir-layout.js';
import { type Manifest } from '../../repository/generation/manifest.js';

export async function checkStores(
  ctx: RepoContext,
  g: SnapshotGeneration,
  manifest: Manifest,
  scratch: string,
  found: { stores: Map<string, string> },
): Promise<CheckOutcome> {
  const items = manifest.items.filter((i) => i.kind === 'sqlite');
  if (items.length === 0) return fail(say('drill.store.no_database', { generation: g.generation }));
  try {
    await ctx.restic.restore(ctx.target, g.snapshot_id, { target: scratch, include: items.map((i) => generationFile(g, i.path)), ...signalOf(ctx) });
  } catch (error) {
    return resticOutcome(error, { doing: say('drill.doing_database'), hadBackups: ctx.hadBackups });
  }
  const done: Said[] = [];
  const where = (item: { path: string }) => ({ path: item.path, generation: g.generation });
  for (const item of items) {
    const local = join(scratch, generationFile(g, item.path));
    const info = await stat(local).catch(() => null);
    if (!info?.isFile()) return fail(say('drill.store.not_restored', where(item)));
    const { sha256, bytes } = await sha256File(local);
    if (bytes !== item.size || sha256 !== item.sha256) {
      return fail(
        say('drill.store.differs', {
          ...where(item),
          size: bytes,
          sha256: sha256.slice(0, 12),
          expected_size: item.size,
          expected_sha256: item.sha256.slice(0, 12),
        }),
      );
    }
    // In a worker with a time limit: the file is untrusted until its schema is Sanad's own.
    const inspected = await admitUntrustedStore(local, { expect: item.path === STORE_FILE ? 'sanad' : 'any', integrity: true, ...signalOf(ctx) });
    if (!inspected.ok) {
      if (inspected.kind === 'not_sanad') return fail(say('drill.store.not_sanad', { ...where(item), problem: inspected.problem }));
      if (inspected.kind === 'too_new') return unverified(say('drill.store.too_new', { ...where(item), version: inspected.version }));
      return fail(say('drill.store.damaged', { ...where(item), problem: inspected.problem }));
    }
    const tables = inspected.tables;
    if (tables === 0 && item.tables > 0) return fail(say('drill.store.no_tables', { ...where(item), expected: item.tables }));
    if (tables !== item.tables) return fail(say('drill.store.table_count', { ...where(item), tables, expected: item.tables }));
    found.stores.set(item.path, local);
    done.push(say('drill.store.ok', { path: item.path, tables }));
  }
  return pass(say('drill.store.all_ok', { files: done }));
}
