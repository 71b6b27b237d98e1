// The restored store still names the old machine's paths: the model registry points at the files
// the backup read, and the local repository may sit in the old data dir. Both are pointed at the
// restored dir in one transaction, on a plain connection that keeps the rollback-journal mode.
import Database from 'better-sqlite3';
import { stat } from 'node:fs/promises';
import { fsyncPath } from '../repository/generation/durable.js';
import { LOCAL } from '../repository/repositories.js';
import type { PlacedModel } from './assemble.js';
import type { Spoken } from '../contract/said.js';
import { say } from '../contract/said/index.js';
import { defaultLocalRepository } from '../files/data-dir-layout.js';

/** The data dir a generation came from: its staging path without `/backups/staging/<epoch>`. */
export function sourceDataDir(generationPath: string): string {
  return generationPath.replace(/[/\\]backups[/\\]staging[/\\][0-9]+$/, '');
}

export interface RegistryUpdate {
  models: number;
  /** What happened to the `local` repository row, for the checklist. */
  local: Spoken;
}

export async function pointRegistry(
  storeFile: string,
  input: { models: PlacedModel[]; modelsInPlace: boolean; oldDataDir: string; newDataDir: string },
): Promise<RegistryUpdate> {
  const moved = input.modelsInPlace
    ? []
    : await Promise.all(input.models.map(async (m) => ({ id: m.item.model_id, path: m.path, mtime: Math.floor((await stat(m.path)).mtimeMs) })));
  // restic has just written the file and the OS still holds most of it: the commit below fsyncs it,
  // and flushing 400 MiB there held the event loop a third of a second. Flushed here first, on the
  // thread pool, the commit's own fsync has next to nothing left to write.
  await fsyncPath(storeFile);
  const db = new Database(storeFile, { fileMustExist: true });
  try {
    return db.transaction((): RegistryUpdate => {
      const update = db.prepare('UPDATE models SET path = ?, mtime_ms = ? WHERE id = ?');
      for (const m of moved) update.run(m.path, m.mtime, m.id);
      const row = db.prepare<[string], { location: string }>('SELECT location FROM repositories WHERE name = ?').get(LOCAL);
      if (!row) return { models: moved.length, local: say('restore.local_none') };
      if (row.location !== defaultLocalRepository(input.oldDataDir)) return { models: moved.length, local: say('restore.local_stays', { path: row.location }) };
      const next = defaultLocalRepository(input.newDataDir);
      db.prepare('UPDATE repositories SET location = ? WHERE name = ?').run(next, LOCAL);
      return { models: moved.length, local: say('restore.local_moves', { path: next, old: row.location }) };
    })();
  } finally {
    db.close();
  }
}
