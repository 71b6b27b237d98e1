// `manifest`: the generation's manifest.json is there, valid, names this generation, and every item
// it lists is in the snapshot with the manifest's size (from `restic ls`: no data is read). The
// sha256 of the database and of the vault key are checked by the next checks; model files are large,
// so their sha256 is checked only by the deep drill's restore rehearsal.
import { ManifestSchema, type Manifest, type ManifestItem } from '../../backup/generation/index.js';
import { describeManifestProblem } from '../../backup/generation/manifest.js';
import { ResticError, type LsNode } from '../../backup/restic/index.js';
import { generationFile, manifestPath, type SnapshotGeneration } from '../../restore/snapshot-generations.js';
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
    if (missingFromSnapshot(error)) return fail(`manifest.json is missing from generation ${g.generation}, so nothing in it can be verified; make a new backup.`);
    return resticOutcome(error, { doing: 'Reading manifest.json', hadBackups: ctx.hadBackups });
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return fail(`manifest.json of generation ${g.generation} is not valid JSON; make a new backup.`);
  }
  const parsed = ManifestSchema.safeParse(json);
  if (!parsed.success) return fail(`manifest.json of generation ${g.generation} is not a valid manifest (${describeManifestProblem(parsed.error)}).`);
  const manifest = parsed.data;
  if (manifest.generation !== g.generation) return fail(`manifest.json in the folder of generation ${g.generation} says it is generation ${manifest.generation}.`);
  found.manifest = manifest;

  let nodes: LsNode[];
  try {
    nodes = await ctx.restic.ls(ctx.target, g.snapshot_id, signalOf(ctx));
  } catch (error) {
    return resticOutcome(error, { doing: 'Listing the snapshot', hadBackups: ctx.hadBackups });
  }
  const byPath = new Map(nodes.map((n) => [n.path, n]));
  const problems: string[] = [];
  for (const item of manifest.items) {
    // A model kept only by its source is not in the snapshot, by the user's choice (said below).
    if (item.kind === 'model_source') continue;
    const node = byPath.get(itemPath(g, item));
    if (!node) problems.push(`${item.path} is missing`);
    // A model registered through a symlink: restic keeps the link, not the file behind it.
    else if (node.type !== 'file') problems.push(`${item.path} is a ${node.type} in the snapshot, not the file itself (its contents were not backed up)`);
    else if (node.size !== item.size) problems.push(`${item.path} is ${node.size} bytes, the manifest says ${item.size}`);
  }
  if (problems.length > 0) return fail(`generation ${g.generation}: ${problems.join('; ')}.`);
  const models = manifest.items.filter((i) => i.kind === 'model').length;
  const modelNote = models === 0 ? '' : kind === 'deep' ? `; the ${models} model(s)' sha256 in the restore rehearsal` : `; the ${models} model(s)' sha256 only in the deep drill`;
  const sources = manifest.items.filter((i) => i.kind === 'model_source');
  const sourceNote = sources.length === 0 ? '' : `; ${sources.map((i) => `model "${i.model_id}" is kept only by its source (${i.uri}), pulled again and verified on restore`).join('; ')}`;
  const inSnapshot = manifest.items.length - sources.length;
  return pass(`generation ${g.generation}: all ${inSnapshot} items present with the manifest's sizes${modelNote}${sourceNote}`);
}
