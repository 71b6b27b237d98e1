// The model registry: a model is a GGUF file where the user keeps it, known by path, size and
// sha256. Status compares the file on disk with that fingerprint, cheaply (size + mtime) unless
// the file changed, and then by re-hashing it.
import { stat } from 'node:fs/promises';
import { basename, resolve } from 'node:path';
import type { Clock } from '../clock.js';
import { unixSeconds } from '../clock.js';
import {
  deleteModel,
  findModelByPath,
  getModel,
  insertModel,
  listModels,
  setModelBackup,
  setModelSettings,
  updateModelStat,
  type ModelBackup,
  type ModelRow,
  type NewModelRow,
  type ModelPooling,
} from '../store/models.js';
import type { Db } from '../store/open.js';
import { ModelUnavailableError, type ModelResolver, type RunSettings } from './model-resolver.js';
import { checkModelSettings, contextOf, type SettingsChange } from './model-settings.js';
import { readGgufHeader } from './gguf-header.js';
import { sha256File } from '../files/hash-file.js';

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
  /** What it makes: text, vectors (a pooling type in its file) or relevance scores (rank pooling). */
  kind: 'generation' | 'embedding' | 'rerank';
  path: string;
  source: { uri: string; revision: string | null } | null;
  backup: ModelBackup;
  settings: {
    context_size: number | null;
    gpu_layers: 'auto' | number | null;
    temperature: number | null;
    max_output_tokens: number | null;
    trained_context: number | null;
  };
}

/** Where a pulled model came from, recorded with it. */
export interface ModelSource {
  uri: string;
  url: string;
  revision: string | null;
}

export class ModelRegistryError extends Error {
  constructor(
    message: string,
    readonly code: 'file_not_found' | 'not_gguf' | 'model_exists' | 'invalid_id' | 'model_not_found' | 'invalid_setting',
  ) {
    super(message);
    this.name = 'ModelRegistryError';
  }
}

export const MODEL_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/;

export function defaultModelId(path: string): string {
  const base = basename(path)
    .replace(/\.gguf$/i, '')
    .replace(/[^A-Za-z0-9._:-]+/g, '-')
    .replace(/^[^A-Za-z0-9]+/, '');
  return base.slice(0, 128) || 'model';
}

export class ModelRegistry implements ModelResolver {
  /** Last verdict per model for a given (size, mtime), so a changed file is hashed once. */
  private readonly verdicts = new Map<string, { key: string; status: ModelStatus }>();

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  async add(path: string, id?: string): Promise<ModelObject> {
    return this.register(path, id, null);
  }

  /** A file a pull downloaded and verified (`sha256` is what it hashed to): registered with its source. */
  async addPulled(path: string, id: string, sha256: string, source: ModelSource, backup: ModelBackup): Promise<ModelObject> {
    return this.register(path, id, { sha256, source, backup });
  }

  private async register(
    path: string,
    id: string | undefined,
    pulled: { sha256: string; source: ModelSource; backup: ModelBackup } | null,
  ): Promise<ModelObject> {
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
    const { sha256, bytes } = pulled ? { sha256: pulled.sha256, bytes: info.size } : await sha256File(full);
    const arch = header.metadata['general.architecture'];
    const ctx = typeof arch === 'string' ? header.metadata[`${arch}.context_length`] : undefined;
    const pooling = typeof arch === 'string' ? poolingOf(header.metadata[`${arch}.pooling_type`]) : null;
    const row: NewModelRow = {
      id: modelId,
      path: full,
      format: 'gguf',
      size_bytes: bytes,
      mtime_ms: Math.floor(info.mtimeMs),
      sha256,
      architecture: typeof arch === 'string' ? arch : null,
      context_length: typeof ctx === 'number' ? ctx : null,
      pooling,
      created_at: unixSeconds(this.clock),
      ...(pulled ? { source_uri: pulled.source.uri, source_url: pulled.source.url, source_revision: pulled.source.revision, backup: pulled.backup } : {}),
    };
    insertModel(this.db, row);
    const stored = getModel(this.db, modelId);
    if (!stored) throw new Error(`model ${modelId} was not stored`);
    return toObject(stored, 'available');
  }

  /** Changes some of a model's run settings (checked against its own metadata); null clears one. */
  async setSettings(id: string, change: SettingsChange): Promise<ModelObject> {
    const row = getModel(this.db, id);
    if (!row) throw new ModelRegistryError(`There is no model "${id}"; \`sanad models list\` shows the ids.`, 'model_not_found');
    const problem = checkModelSettings(row, change);
    if (problem) throw new ModelRegistryError(problem, 'invalid_setting');
    const keep = <T>(given: T | undefined, now: T): T => (given === undefined ? now : given);
    setModelSettings(this.db, id, {
      context_size: keep(change.context_size, row.context_size),
      gpu_layers: change.gpu_layers === undefined ? row.gpu_layers : change.gpu_layers === null ? null : String(change.gpu_layers),
      temperature: keep(change.temperature, row.temperature),
      max_output_tokens: keep(change.max_output_tokens, row.max_output_tokens),
    });
    const model = await this.get(id);
    if (!model) throw new ModelRegistryError(`There is no model "${id}".`, 'model_not_found');
    return model;
  }

  /** Whether backups carry this model's bytes, or (a pulled model only) just where it came from. */
  async setBackup(id: string, backup: ModelBackup): Promise<ModelObject> {
    const row = getModel(this.db, id);
    if (!row) throw new ModelRegistryError(`There is no model "${id}"; \`sanad models list\` shows the ids.`, 'model_not_found');
    if (backup === 'source' && !row.source_uri) {
      throw new ModelRegistryError(
        `Model "${id}" was added from a file, not pulled, so a restore could not fetch it again; only pulled models can be left out of backups.`,
        'invalid_setting',
      );
    }
    setModelBackup(this.db, id, backup);
    const model = await this.get(id);
    if (!model) throw new ModelRegistryError(`There is no model "${id}".`, 'model_not_found');
    return model;
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

  /** What the model makes: text, vectors or relevance scores (null: not registered). */
  kindOf(id: string): ModelObject['kind'] | null {
    const row = getModel(this.db, id);
    return row ? kindOfPooling(row.pooling) : null;
  }

  /** The most tokens this model's context can hold as it will be loaded (its own setting, else its
   *  training up to the engine's default), or null for a model not registered. */
  contextCap(id: string): number | null {
    const row = getModel(this.db, id);
    if (!row) return null;
    return contextOf(row.context_length || null, row.context_size);
  }

  remove(id: string): boolean {
    this.verdicts.delete(id);
    return deleteModel(this.db, id);
  }

  async resolveForRun(modelId: string): Promise<{ path: string; settings: RunSettings }> {
    const row = getModel(this.db, modelId);
    if (!row) throw new ModelUnavailableError(`The model "${modelId}" is no longer registered.`, 'model_not_found');
    const status = await this.status(row);
    if (status === 'missing') {
      throw new ModelUnavailableError(`The file of model "${modelId}" is missing (${row.path}); put it back or register it again.`, 'model_missing');
    }
    if (status === 'changed') {
      throw new ModelUnavailableError(`The file of model "${modelId}" changed since it was registered (sha256 differs); register it again.`, 'model_changed');
    }
    return { path: row.path, settings: runSettingsOf(row) };
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

function gpuLayersOf(row: ModelRow): 'auto' | number | null {
  if (row.gpu_layers === null) return null;
  return row.gpu_layers === 'auto' ? 'auto' : Number(row.gpu_layers);
}

function runSettingsOf(row: ModelRow): RunSettings {
  const gpu = gpuLayersOf(row);
  return {
    ...(row.context_size !== null ? { contextSize: row.context_size } : {}),
    ...(gpu !== null ? { gpuLayers: gpu } : {}),
    ...(row.temperature !== null ? { temperature: row.temperature } : {}),
    ...(row.max_output_tokens !== null ? { maxOutputTokens: row.max_output_tokens } : {}),
  };
}

/** llama.cpp's pooling types: 0 none, 1 mean, 2 cls, 3 last, 4 rank (a reranker). */
function poolingOf(value: unknown): ModelPooling | null {
  const types: Record<number, ModelPooling> = { 1: 'mean', 2: 'cls', 3: 'last', 4: 'rank' };
  return typeof value === 'number' ? (types[value] ?? null) : null;
}

/** A file that declares a pooling type makes vectors; rank pooling makes relevance scores. */
function kindOfPooling(pooling: ModelPooling | null): ModelObject['kind'] {
  return pooling === null ? 'generation' : pooling === 'rank' ? 'rerank' : 'embedding';
}

function toObject(row: ModelRow, status: ModelStatus): ModelObject {
  return {
    id: row.id,
    object: 'model',
    kind: kindOfPooling(row.pooling),
    created: row.created_at,
    owned_by: 'local',
    format: row.format,
    size_bytes: row.size_bytes,
    sha256: row.sha256,
    status,
    path: row.path,
    source: row.source_uri ? { uri: row.source_uri, revision: row.source_revision } : null,
    backup: row.backup,
    settings: {
      context_size: row.context_size,
      gpu_layers: gpuLayersOf(row),
      temperature: row.temperature,
      max_output_tokens: row.max_output_tokens,
      trained_context: row.context_length,
    },
  };
}
