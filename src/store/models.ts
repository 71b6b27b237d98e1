// Registered model files (table `models`): where the file is and its fingerprint. Never the bytes.
import type { Db } from './open.js';
import { cachedStatement } from './statements.js';

export interface ModelRow {
  id: string;
  path: string;
  format: string;
  size_bytes: number;
  mtime_ms: number;
  sha256: string;
  architecture: string | null;
  context_length: number | null;
  /** How the model pools its output into one vector (GGUF `<arch>.pooling_type`); null: it does not (a generative model). */
  pooling: ModelPooling | null;
  created_at: number;
  /** Where it was pulled from (null: added from a file); the sha256 it was verified against is `sha256`. */
  source_uri: string | null;
  source_url: string | null;
  source_revision: string | null;
  /** 'include': its bytes go into backups; 'source': only where it came from (pulled again on restore). */
  backup: ModelBackup;
  /** Run settings; null: the engine's default. `gpu_layers` is 'auto' or a whole number as text. */
  context_size: number | null;
  gpu_layers: string | null;
  temperature: number | null;
  max_output_tokens: number | null;
}

export type ModelBackup = 'include' | 'source';
export type ModelPooling = 'mean' | 'cls' | 'last' | 'rank';

/** What `sanad models add` knows of a new model; the rest takes its defaults. */
export type NewModelRow = Pick<ModelRow, 'id' | 'path' | 'format' | 'size_bytes' | 'mtime_ms' | 'sha256' | 'architecture' | 'context_length' | 'created_at'> &
  Partial<Pick<ModelRow, 'source_uri' | 'source_url' | 'source_revision' | 'backup' | 'pooling'>>;

export interface ModelSettings {
  context_size: number | null;
  gpu_layers: string | null;
  temperature: number | null;
  max_output_tokens: number | null;
}

export function insertModel(db: Db, row: NewModelRow): void {
  db.prepare(
    `INSERT INTO models(id, path, format, size_bytes, mtime_ms, sha256, architecture, context_length, pooling, created_at, source_uri, source_url, source_revision, backup)
     VALUES (@id, @path, @format, @size_bytes, @mtime_ms, @sha256, @architecture, @context_length, @pooling, @created_at, @source_uri, @source_url, @source_revision, @backup)`,
  ).run({ source_uri: null, source_url: null, source_revision: null, backup: 'include', pooling: null, ...row });
}

/** Stores a model's run settings (every field: null clears it). */
export function setModelSettings(db: Db, id: string, settings: ModelSettings): boolean {
  return (
    db
      .prepare(
        'UPDATE models SET context_size = @context_size, gpu_layers = @gpu_layers, temperature = @temperature, max_output_tokens = @max_output_tokens WHERE id = @id',
      )
      .run({ id, ...settings }).changes > 0
  );
}

export function setModelBackup(db: Db, id: string, backup: ModelBackup): boolean {
  return db.prepare('UPDATE models SET backup = ? WHERE id = ?').run(backup, id).changes > 0;
}

/** A restore that pulled a left-out model again points its row at the new file. */
export function setModelPath(db: Db, id: string, path: string, mtimeMs: number): void {
  db.prepare('UPDATE models SET path = ?, mtime_ms = ? WHERE id = ?').run(path, mtimeMs, id);
}

const byId = cachedStatement<[string], ModelRow>('SELECT * FROM models WHERE id = ?');

export function getModel(db: Db, id: string): ModelRow | undefined {
  return byId(db).get(id);
}

export function listModels(db: Db): ModelRow[] {
  return db.prepare<[], ModelRow>('SELECT * FROM models ORDER BY created_at, id').all();
}

export function findModelByPath(db: Db, path: string): ModelRow | undefined {
  return db.prepare<[string], ModelRow>('SELECT * FROM models WHERE path = ?').get(path);
}

/** Records a new fingerprint after the file was re-hashed and found unchanged (mtime moved only). */
export function updateModelStat(db: Db, id: string, mtimeMs: number): void {
  db.prepare('UPDATE models SET mtime_ms = ? WHERE id = ?').run(mtimeMs, id);
}

export function deleteModel(db: Db, id: string): boolean {
  return db.prepare('DELETE FROM models WHERE id = ?').run(id).changes > 0;
}

export function findModelBySha256(db: Db, sha256: string): ModelRow | undefined {
  return db.prepare<[string], ModelRow>('SELECT * FROM models WHERE sha256 = ? ORDER BY created_at LIMIT 1').get(sha256);
}
