// `manifest`: the generation's manifest.json is there, valid, names this generation, and every item
// it lists is in the snapshot with the manifest's size (from `restic ls`: no data is read). The
// sha256 of the database and of the vault key are checked by the next checks; model files are large,
// so their sha256 is checked only by the deep drill's restore rehearsal.
import { ManifestSchema, describeManifestProblem, type Manifest, type ManifestItem } from '../../repository/generation/manifest.js';
import { ResticError, type LsNode } from '../../repository/restic/index.js';
import { generationFile, manifestPath, type SnapshotGeneration } from '../../restore/snapshot-generations.js';
import { say } from '../../contract/said/index.js';
import type { Said } from '../../contract/said.js';
import { resticOutcome } from '../restic-outcome.js';
import { fail, pass, type CheckOutcome, type DrillKind } from '../verdict.js';
import { signalOf, type RepoContext } from './repo-context.js';

const MAX_MANIFEST_BYTES = 4 * 1024 * 1024;

/** Where an item sits inside the snapshot: generation files under the staging folder, models where they were. */
export function itemPath(g: Pick<SnapshotGeneration, 'generation_path'>, item: ManifestItem): string {
  return item.kind === 'model' || item.kind === 'model_source' ? item.path.replace(/\\/g, '/') : generationFile(g, item.path);
}

export function missingFromSnapshot(error: unknown): boolean {
  return error instanceof ResticError && error.stderrTail.some((l) => /not found in snapshot/i.test(l));
}

export async function checkManifest(ctx: RepoContext, g: SnapshotGeneration, kind: DrillKind, found: { manifest?: Manifest }): Promise<CheckOutcome> {
  let text: string;
  try {
    text = await ctx.restic.dumpText(ctx.target, g.snapshot_id, manifestPath(g), { maxBytes: MAX_MANIFEST_BYTES, ...signalOf(ctx) });
  } catch (error) {
    if (missingFromSnapshot(error)) return fail(say('drill.manifest.missing', { generation: g.generation }));
    return resticOutcome(error, { doing: say('drill.doing_manifest'), hadBackups: ctx.hadBackups });
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return fail(say('drill.manifest.not_json', { generation: g.generation }));
  }
  const parsed = ManifestSchema.safeParse(json);
  if (!parsed.success) return fail(say('drill.manifest.invalid', { generation: g.generation, problem: describeManifestProblem(parsed.error) }));
  const manifest = parsed.data;
  if (manifest.generation !== g.generation) return fail(say('drill.manifest.other_generation', { generation: g.generation, said: manifest.generation }));
  found.manifest = manifest;

  let nodes: LsNode[];
  try {
    nodes = await ctx.restic.ls(ctx.target, g.snapshot_id, signalOf(ctx));
  } catch (error) {
    return resticOutcome(error, { doing: say('drill.doing_listing'), hadBackups: ctx.hadBackups });
  }
  const byPath = new Map(nodes.map((n) => [n.path, n]));
  const problems: Said[] = [];
  for (const item of manifest.items) {
    // A model kept only by its source is not in the snapshot, by the user's choice (said below).
    if (item.kind === 'model_source') continue;
    const node = byPath.get(itemPath(g, item));
    if (!node) problems.push(say('drill.manifest.item_missing', { path: item.path }));
    // A model registered through a symlink: restic keeps the link, not the file behind it.
    else if (node.type !== 'file') problems.push(say('drill.manifest.item_not_file', { path: item.path, type: node.type }));
    else if (node.size !== item.size) problems.push(say('drill.manifest.item_size', { path: item.path, size: node.size, expected: item.size }));
  }
  if (problems.length > 0) return fail(say('drill.manifest.problems', { generation: g.generation, problems }));
  const models = manifest.items.filter((i) => i.kind === 'model').length;
  const notes: Said[] = [];
  if (models > 0) notes.push(say(kind === 'deep' ? 'drill.manifest.models_deep' : 'drill.manifest.models_daily', { count: models }));
  const sources = manifest.items.filter((i) => i.kind === 'model_source');
  for (const i of sources) notes.push(say('drill.manifest.by_source', { model: i.model_id, uri: i.uri }));
  const inSnapshot = manifest.items.length - sources.length;
  return pass(
    notes.length === 0
      ? say('drill.manifest.ok', { generation: g.generation, count: inSnapshot })
      : say('drill.manifest.ok_noted', { generation: g.generation, count: inSnapshot, notes }),
  );
}
