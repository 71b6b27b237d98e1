// Manifest items for registered models. The files are not copied: restic reads them where they
// are. An unchanged model (size and mtime as registered) takes its sha256 from the registry and
// is never read here; a model of many GB must not be re-hashed by every backup. A file whose size
// or content no longer matches its registration is left out (`changed`).
import { realpath, stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { sha256File } from '../../files/hash-file.js';
import { listModels } from '../../store/models.js';
import type { Db } from '../../store/open.js';
import type { ModelManifestItem, ModelSourceManifestItem } from '../../repository/generation/manifest.js';

export interface ModelItems {
  items: Array<ModelManifestItem | ModelSourceManifestItem>;
  /** Pulled models kept only by their source (backup 'source'): their bytes are not read. */
  bySource: string[];
  /** Models whose size or mtime moved, so their sha256 was computed again by this run. */
  rehashed: string[];
  /** Registered models whose file is gone: not in this generation. */
  missing: string[];
  /** Registered models whose file no longer has the registered size and fingerprint (replaced, or
   *  swapped for a link to another file): left out, so a backup never carries a file that was not
   *  the one the user registered (an SSH key behind a swapped symlink, say). */
  changed: string[];
}

export async function modelItems(db: Db, onRehash?: (modelId: string) => void): Promise<ModelItems> {
  const out: ModelItems = { items: [], bySource: [], rehashed: [], missing: [], changed: [] };
  for (const row of listModels(db)) {
    if (row.backup === 'source' && row.source_uri && row.source_url) {
      const fileName = basename(row.path);
      out.items.push({
        kind: 'model_source',
        path: row.path,
        model_id: row.id,
        uri: row.source_uri,
        url: row.source_url,
        revision: row.source_revision,
        file_name: fileName,
        size: row.size_bytes,
        sha256: row.sha256,
      });
      out.bySource.push(row.id);
      continue;
    }
    // restic stores a symlink as a link, never its target: the generation names the real file, so
    // a model registered through a link (a models folder of links into a big disk) is really kept.
    const path = await realpath(row.path).catch(() => null);
    const info = path === null ? null : await stat(path).catch(() => null);
    if (path === null || !info || !info.isFile()) {
      // A missing model must not cost the user the backup of everything else; the caller reports it.
      out.missing.push(row.id);
      continue;
    }
    // Same comparison as the registry (mtime stored in whole milliseconds).
    const unchanged = info.size === row.size_bytes && Math.floor(info.mtimeMs) === row.mtime_ms;
    if (unchanged) {
      out.items.push({ kind: 'model', path, size: row.size_bytes, sha256: row.sha256, model_id: row.id });
      continue;
    }
    if (info.size !== row.size_bytes) {
      out.changed.push(row.id);
      continue;
    }
    onRehash?.(row.id);
    const { sha256, bytes } = await sha256File(path);
    if (sha256 !== row.sha256 || bytes !== row.size_bytes) {
      out.changed.push(row.id);
      continue;
    }
    out.rehashed.push(row.id);
    out.items.push({ kind: 'model', path, size: bytes, sha256, model_id: row.id });
  }
  return out;
}
