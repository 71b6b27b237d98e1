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
  created_at: number;
}

export function insertModel(db: Db, row: ModelRow): void {
  db.prepare(
    `INSERT INTO models(id, path, format, size_bytes, mtime_ms, sha256, architecture, context_length, created_at)
     VALUES (@id, @path, @format, @size_bytes, @mtime_ms, @sha256, @architecture, @context_length, @created_at)`,
  ).run(row);
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
