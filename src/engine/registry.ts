// The model registry: a model is a GGUF file where the user keeps it, known by path, size and
// sha256. Status compares the file on disk with that fingerprint, cheaply (size + mtime) unless
// the file changed, and then by re-hashing it.
import { stat } from 'node:fs/promises';
import { basename, resolve } from 'node:path';
import type { Clock } from '../clock.js';
import { unixSeconds } from '../clock.js';
import { deleteModel, findModelByPath, getModel, insertModel, listModels, updateModelStat, type ModelRow } from '../store/models.js';
import type { Db } from '../store/open.js';
import { ModelUnavailableError, type ModelResolver } from './model-resolver.js';
import { readGgufHeader } from './gguf-header.js';
import { sha256File } from './hash-file.js';

export type ModelStatus = 'available' | 'missing' | 'changed';

/** Must stay assignable to the wire contract's Model (src/contract/tasks.ts): checked in routes/models.ts. */
export interface ModelObject {
  id: string;
  object: 'model';
  created: number;
  owned_by: 'local';
  format: string;
  size_bytes: number;
  sha256: string;
  status: ModelStatus;
  path: string;
}

export class ModelRegistryError extends Error {
  constructor(message: string, readonly code: 'file_not_found' | 'not_gguf' | 'model_exists' | 'invalid_id') {
    super(message);
    this.name = 'ModelRegistryError';
  }
}

export const MODEL_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/;

export function defaultModelId(path: string): string {
  const base = basename(path).replace(/\.gguf$/i, '').replace(/[^A-Za-z0-9._:-]+/g, '-').replace(/^[^A-Za-z0-9]+/, '');
  return base.slice(0, 128) || 'model';
}

export class ModelRegistry implements ModelResolver {
  /** Last verdict per model for a given (size, mtime), so a changed file is hashed once. */
  private readonly verdicts = new Map<string, { key: string; status: ModelStatus }>();

  constructor(private readonly db: Db, private readonly clock: Clock) {}

  async add(path: string, id?: string): Promise<ModelObject> {
    const full = resolve(path);
    const info = await stat(full).catch(() => null);
    if (!info || !info.isFile()) throw new ModelRegistryError(`There is no model file at ${full}; check the path.`, 'file_not_found');
    const header = await readGgufHeader(full).catch((err: unknown) => {
      throw new ModelRegistryError(err instanceof Error ? err.message : `${full} is not a GGUF model file.`, 'not_gguf');
    });
    const modelId = id ?? defaultModelId(full);
    if (!MODEL_ID_PATTERN.test(modelId)) {
      throw new ModelRegistryError(`"${modelId}" is not a valid model id: use letters, digits, '.', '_', ':' or '-' (up to 128).`, 'invalid_id');
    }
    if (getModel(this.db, modelId)) throw new ModelRegistryError(`A model with id "${modelId}" is already registered; pick another --id.`, 'model_exists');
    const existing = findModelByPath(this.db, full);
    if (existing) throw new ModelRegistryError(`${full} is already registered as "${existing.id}".`, 'model_exists');
    const { sha256, bytes } = await sha256File(full);
    const arch = header.metadata['general.architecture'];
    const ctx = typeof arch === 'string' ? header.metadata[`${arch}.context_length`] : undefined;
    const row: ModelRow = {
      id: modelId,
      path: full,
      format: 'gguf',
      size_bytes: bytes,
      mtime_ms: Math.floor(info.mtimeMs),
      sha256,
      architecture: typeof arch === 'string' ? arch : null,
      context_length: typeof ctx === 'number' ? ctx : null,
      created_at: unixSeconds(this.clock),
    };
    insertModel(this.db, row);
    return toObject(row, 'available');
  }

  async list(): Promise<ModelObject[]> {
    const rows = listModels(this.db);
    return Promise.all(rows.map(async (row) => toObject(row, await this.status(row))));
  }

  async get(id: string): Promise<ModelObject | null> {
    const row = getModel(this.db, id);
    return row ? toObject(row, await this.status(row)) : null;
  }

  exists(id: string): boolean {
    return getModel(this.db, id) !== undefined;
  }

  remove(id: string): boolean {
    this.verdicts.delete(id);
    return deleteModel(this.db, id);
  }

  async resolveForRun(modelId: string): Promise<{ path: string }> {
    const row = getModel(this.db, modelId);
    if (!row) throw new ModelUnavailableError(`The model "${modelId}" is no longer registered.`, 'model_not_found');
    const status = await this.status(row);
    if (status === 'missing') {
      throw new ModelUnavailableError(`The file of model "${modelId}" is missing (${row.path}); put it back or register it again.`, 'model_missing');
    }
    if (status === 'changed') {
      throw new ModelUnavailableError(`The file of model "${modelId}" changed since it was registered (sha256 differs); register it again.`, 'model_changed');
    }
    return { path: row.path };
  }

  private async status(row: ModelRow): Promise<ModelStatus> {
    const info = await stat(row.path).catch(() => null);
    if (!info || !info.isFile()) return 'missing';
    const mtime = Math.floor(info.mtimeMs);
    if (info.size === row.size_bytes && mtime === row.mtime_ms) return 'available';
    if (info.size !== row.size_bytes) return 'changed';
    const key = `${info.size}:${mtime}`;
    const cached = this.verdicts.get(row.id);
    if (cached?.key === key) return cached.status;
    const { sha256 } = await sha256File(row.path).catch(() => ({ sha256: '' }));
    const status: ModelStatus = sha256 === row.sha256 ? 'available' : 'changed';
    // Same bytes, new mtime (a copy or touch): remember the new mtime so the fast path works again.
    if (status === 'available') updateModelStat(this.db, row.id, mtime);
    else this.verdicts.set(row.id, { key, status });
    return status;
  }
}

function toObject(row: ModelRow, status: ModelStatus): ModelObject {
  return {
    id: row.id,
    object: 'model',
    created: row.created_at,
    owned_by: 'local',
    format: row.format,
    size_bytes: row.size_bytes,
    sha256: row.sha256,
    status,
    path: row.path,
  };
}
