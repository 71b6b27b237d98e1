// `sqlite:integrity`: each database of the generation, restored alone into the drill's scratch dir,
// has the manifest's size and sha256, is a Sanad store (its schema exactly a known version's, looked
// at in a worker: store/untrusted-store.ts), passes `PRAGMA integrity_check`, and has as
// many tables as the manifest recorded; zero tables is damage unless the source had none.
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Manifest } from '../../backup/generation/index.js';
import { sha256File } from '../../engine/hash-file.js';
import { generationFile, type SnapshotGeneration } from '../../restore/snapshot-generations.js';
import { resticOutcome } from '../restic-outcome.js';
import { fail, pass, unverified, type CheckOutcome } from '../verdict.js';
import { signalOf, type RepoContext } from './repo-context.js';
import { STORE_FILE } from '../../store/open.js';
import { admitUntrustedStore } from '../../store/untrusted-store.js';

export async function checkStores(
  ctx: RepoContext,
  g: SnapshotGeneration,
  manifest: Manifest,
  scratch: string,
  found: { stores: Map<string, string> },
): Promise<CheckOutcome> {
  const items = manifest.items.filter((i) => i.kind === 'sqlite');
  if (items.length === 0) return fail(`the manifest of generation ${g.generation} lists no database.`);
  try {
    await ctx.restic.restore(ctx.target, g.snapshot_id, { target: scratch, include: items.map((i) => generationFile(g, i.path)), ...signalOf(ctx) });
  } catch (error) {
    return resticOutcome(error, { doing: 'Restoring the database copy', hadBackups: ctx.hadBackups });
  }
  const done: string[] = [];
  for (const item of items) {
    const local = join(scratch, generationFile(g, item.path));
    const info = await stat(local).catch(() => null);
    if (!info?.isFile()) return fail(`${item.path} of generation ${g.generation} was not restored although the snapshot lists it.`);
    const { sha256, bytes } = await sha256File(local);
    if (bytes !== item.size || sha256 !== item.sha256) {
      return fail(`${item.path} of generation ${g.generation} differs from its manifest (${bytes} bytes, sha256 ${sha256.slice(0, 12)}…; expected ${item.size} bytes, ${item.sha256.slice(0, 12)}…).`);
    }
    // In a worker with a time limit: the file is untrusted until its schema is Sanad's own.
    const inspected = await admitUntrustedStore(local, { expect: item.path === STORE_FILE ? 'sanad' : 'any', integrity: true, ...signalOf(ctx) });
    if (!inspected.ok) {
      if (inspected.kind === 'not_sanad') return fail(`${item.path} of generation ${g.generation} is not a Sanad store: ${inspected.problem}; if you did not make this backup, someone else wrote to the repository.`);
      if (inspected.kind === 'too_new') return unverified(`${item.path} of generation ${g.generation} was written by a newer Sanad (store version ${inspected.version}); a drill by that version can check it.`);
      return fail(`${item.path} of generation ${g.generation} is damaged: ${inspected.problem}.`);
    }
    const tables = inspected.tables;
    if (tables === 0 && item.tables > 0) return fail(`${item.path} of generation ${g.generation} has no tables, but the source had ${item.tables}.`);
    if (tables !== item.tables) return fail(`${item.path} of generation ${g.generation} has ${tables} tables, the manifest says ${item.tables}.`);
    found.stores.set(item.path, local);
    done.push(`${item.path}: integrity_check ok, ${tables} tables as in the manifest, sha256 matches`);
  }
  return pass(done.join('; '));
}
