// From restic's layout (every file at its original absolute path under the work folder) to a
// Sanad data dir: each database where Sanad reads it, each model under models/ with a unique
// name. Renames only: the work folder is inside the target, so nothing is copied twice.
import { mkdir, rename } from 'node:fs/promises';
import { basename, extname, join } from 'node:path';
import type { ModelManifestItem, SqliteManifestItem } from '../repository/generation/manifest.js';
import { checkAbsolute, checkRelative, fileInside } from './backup-paths.js';
import type { PlacedStore } from './store-checks.js';

export interface PlacedModel {
  item: ModelManifestItem;
  /** Where the model is now: under `<target>/models/`, or its original path when kept in place. */
  path: string;
}

export interface Placement {
  stores: PlacedStore[];
  models: PlacedModel[];
}

/** `name` if free, else `stem-2.ext`, `stem-3.ext`, … (two models may share a file name). */
export function uniqueName(name: string, taken: Set<string>): string {
  const ext = extname(name);
  const stem = name.slice(0, name.length - ext.length) || 'model';
  let candidate = name;
  for (let n = 2; taken.has(candidate); n++) candidate = `${stem}-${n}${ext}`;
  taken.add(candidate);
  return candidate;
}

export async function placeFiles(input: {
  /** restic's restore target inside the work folder. */
  filesDir: string;
  /** The generation's folder as backed up (absolute). */
  generationPath: string;
  target: string;
  stores: SqliteManifestItem[];
  models: ModelManifestItem[];
  modelsInPlace: boolean;
}): Promise<Placement> {
  // Every path from the backup is checked before the first file moves (backup-paths.ts).
  const generationPath = checkAbsolute(input.generationPath, 'its generation folder as');
  const storeSources: string[] = [];
  for (const item of input.stores) storeSources.push(await fileInside(input.filesDir, 'a database', generationPath, checkRelative(item.path, 'a database')));
  const modelSources: string[] = [];
  for (const item of input.models) {
    checkAbsolute(item.path, 'a model');
    if (!input.modelsInPlace) modelSources.push(await fileInside(input.filesDir, 'a model', item.path));
  }
  const stores: PlacedStore[] = [];
  for (const [i, item] of input.stores.entries()) {
    const path = join(input.target, item.path);
    await rename(storeSources[i] ?? '', path);
    stores.push({ name: item.path, path, tables: item.tables });
  }
  if (input.modelsInPlace) return { stores, models: input.models.map((item) => ({ item, path: item.path })) };
  const models: PlacedModel[] = [];
  if (input.models.length > 0) await mkdir(join(input.target, 'models'), { mode: 0o700 });
  const taken = new Set<string>();
  for (const [i, item] of input.models.entries()) {
    const path = join(input.target, 'models', uniqueName(basename(item.path), taken));
    await rename(modelSources[i] ?? '', path);
    models.push({ item, path });
  }
  return { stores, models };
}
