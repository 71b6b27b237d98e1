// Pulled models a backup kept only by their source (the user's choice, to spare every offsite
// repository their gigabytes): the restore downloads each again from where it came from into the
// target's models folder and verifies it against the sha256 the backup recorded, as a pull does
// (engine/hub/download.ts: Range resume, retries, the sha256 before it is placed). The hub may have
// removed the file, or there may be no network: the rest of the restore still stands, and the
// check says which model is missing and the command that gets it once the hub can be reached.
import { mkdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { ModelManifestItem, ModelSourceManifestItem } from '../repository/generation/manifest.js';
import { downloadVerified } from '../engine/hub/download.js';
import { downloadSource, type Hub } from '../engine/hub/hub-client.js';
import { uniqueName, type PlacedModel } from './assemble.js';
import { errorParam } from '../contract/said.js';
import { say } from '../contract/said/index.js';
import type { CheckList } from './checks.js';

export async function pullLeftOutModels(input: {
  sources: ModelSourceManifestItem[];
  target: string;
  /** File names already taken in `<target>/models` (the models the backup carried). */
  taken: Set<string>;
  hub: Hub;
  checks: CheckList;
  signal?: AbortSignal;
}): Promise<PlacedModel[]> {
  const placed: PlacedModel[] = [];
  if (input.sources.length === 0) return placed;
  const models = join(input.target, 'models');
  await mkdir(models, { recursive: true, mode: 0o700 });
  for (const item of input.sources) {
    const got = await input.checks.run(`models:pulled:${item.model_id}`, async () => {
      const work = join(models, `.pull-${item.model_id.replace(/[^A-Za-z0-9._-]/g, '_')}`);
      try {
        const source = await downloadSource(input.hub, item.url, !item.uri.startsWith('http'));
        const { path } = await downloadVerified({
          url: source.url,
          headers: source.headers,
          dir: work,
          fileName: item.file_name,
          size: item.size,
          sha256: item.sha256,
          signal: input.signal ?? new AbortController().signal,
          onProgress: () => undefined,
        });
        const final = join(models, uniqueName(item.file_name, input.taken));
        await rename(path, final);
        const model: ModelManifestItem = { kind: 'model', path: final, size: item.size, sha256: item.sha256, model_id: item.model_id };
        return { said: say('restore.pulled', { uri: item.uri, path: final, sha256: item.sha256.slice(0, 12) }), value: { item: model, path: final } };
      } catch (err) {
        if (input.signal?.aborted) throw err;
        // Not a failed restore: the data is whole; only this model's file must be fetched later.
        return { said: say('restore.pull_failed', { uri: item.uri, why: errorParam(err), model: item.model_id }), value: null };
      } finally {
        await rm(work, { recursive: true, force: true });
      }
    });
    if (got) placed.push(got);
  }
  return placed;
}
