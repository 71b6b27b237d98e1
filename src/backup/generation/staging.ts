// The staging folder (<data-dir>/backups/staging): one folder per generation, named by its epoch.
// A folder is a whole generation only under its bare epoch name; `<epoch>.partial` is a run that
// has not finished (or never will: a crash), and nothing here ever lists or reads one.
import { readdir, readFile, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { describeManifestProblem, MANIFEST_FILE, ManifestSchema, type Manifest } from '../../repository/generation/manifest.js';
import { stagingDir } from '../../files/data-dir-layout.js';

export const PARTIAL_SUFFIX = '.partial';
const COMPLETE_NAME = /^[1-9][0-9]*$/;
const PARTIAL_NAME = /^[1-9][0-9]*\.partial$/;

export interface GenerationDir {
  epoch: number;
  dir: string;
}

export interface Generation extends GenerationDir {
  manifest: Manifest;
}

async function entries(dataDir: string): Promise<string[]> {
  try {
    return await readdir(stagingDir(dataDir));
  } catch (err) {
    if (isNotFound(err)) return [];
    throw err;
  }
}

/** Whole generations, newest first by epoch (the epoch names the data's moment, not a file time). */
export async function listGenerations(dataDir: string): Promise<GenerationDir[]> {
  const found: GenerationDir[] = [];
  for (const name of await entries(dataDir)) {
    if (!COMPLETE_NAME.test(name)) continue;
    const dir = join(stagingDir(dataDir), name);
    // The rename happens after manifest.json is on disk, so a bare-epoch folder always has one;
    // checking anyway keeps a hand-made or half-deleted folder out of the list.
    const manifest = await stat(join(dir, MANIFEST_FILE)).catch(() => null);
    if (manifest?.isFile()) found.push({ epoch: Number(name), dir });
  }
  return found.sort((a, b) => b.epoch - a.epoch);
}

/** Every `<epoch>.partial` folder: runs that never finished. */
export async function listPartials(dataDir: string): Promise<string[]> {
  return (await entries(dataDir)).filter((n) => PARTIAL_NAME.test(n)).map((n) => join(stagingDir(dataDir), n));
}

/** The highest epoch used by any folder, whole or partial (new names must stay above it). */
export async function highestEpoch(dataDir: string): Promise<number> {
  let max = 0;
  for (const name of await entries(dataDir)) {
    if (COMPLETE_NAME.test(name) || PARTIAL_NAME.test(name)) max = Math.max(max, Number.parseInt(name, 10));
  }
  return max;
}

/**
 * Removes every `.partial` and the oldest whole generations beyond `keep`; returns what it removed.
 * Never call it while a generation is being made: that run's `.partial` would go too.
 */
export async function pruneStaging(dataDir: string, keep = 2): Promise<string[]> {
  if (!Number.isInteger(keep) || keep < 0) throw new Error(`Staging must keep a whole number of generations, not ${keep}.`);
  const doomed = [...(await listPartials(dataDir)), ...(await listGenerations(dataDir)).slice(keep).map((g) => g.dir)];
  for (const dir of doomed) await rm(dir, { recursive: true, force: true });
  return doomed;
}

/** The manifest of a generation dir, validated; a missing or malformed one is a clear error. */
export async function readManifest(dir: string): Promise<Manifest> {
  const path = join(dir, MANIFEST_FILE);
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    if (isNotFound(err)) throw new ManifestError(`There is no ${MANIFEST_FILE} in ${dir}, so it is not a whole generation.`);
    throw err;
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new ManifestError(`${path} is not valid JSON, so the generation cannot be trusted.`);
  }
  const parsed = ManifestSchema.safeParse(json);
  if (!parsed.success) throw new ManifestError(`${path} does not match the manifest format (${describeManifestProblem(parsed.error)}).`);
  return parsed.data;
}

export class ManifestError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ManifestError';
  }
}

/** Absolute paths a restic backup of this generation must include: its folder and every model. */
export function backupTargets(generation: Generation): string[] {
  const models = generation.manifest.items.filter((i) => i.kind === 'model').map((i) => i.path);
  return [...new Set([generation.dir, ...models])];
}

function isNotFound(err: unknown): boolean {
  return err instanceof Error && 'code' in err && err.code === 'ENOENT';
}
