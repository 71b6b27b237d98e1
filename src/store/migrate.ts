// Append-only migrations keyed by `PRAGMA user_version`. Each runs in its own transaction with the
// version bump, so a crash leaves the store at the previous version, never between two. A store
// written by a newer Sanad is refused rather than guessed at, and an existing store is copied
// aside (VACUUM INTO) before any migration touches it.
import type Database from 'better-sqlite3';
import { existsSync, rmSync } from 'node:fs';
import { MIGRATIONS, type Migration } from './migrations/index.js';

export class StoreTooNewError extends Error {
  constructor(found: number, known: number) {
    super(
      `This data was written by a newer Sanad (store version ${found}; this Sanad knows up to ${known}). ` +
        'Install the newer Sanad again, or point --data-dir at data made by this version.',
    );
    this.name = 'StoreTooNewError';
  }
}

export interface MigrateOptions {
  /** Migrations to apply (tests pass a prefix of the list to build old stores). */
  migrations?: readonly Migration[];
}

export function latestVersion(migrations: readonly Migration[] = MIGRATIONS): number {
  return migrations.length === 0 ? 0 : Math.max(...migrations.map((m) => m.version));
}

export function currentVersion(db: Database.Database): number {
  const v = db.pragma('user_version', { simple: true });
  return typeof v === 'number' ? v : 0;
}

export function migrate(db: Database.Database, path: string, options: MigrateOptions = {}): void {
  const migrations = options.migrations ?? MIGRATIONS;
  checkOrder(migrations);
  const known = latestVersion(migrations);
  const found = currentVersion(db);
  if (found > known) throw new StoreTooNewError(found, known);
  const pending = migrations.filter((m) => m.version > found);
  if (pending.length === 0) return;
  if (found > 0) backupBeforeMigration(db, path, found);
  for (const m of pending) {
    // IMMEDIATE takes the write lock before reading the version again, so two processes opening a
    // new data dir at once apply each migration exactly once instead of racing on it.
    db.transaction(() => {
      if (currentVersion(db) >= m.version) return;
      m.up(db);
      db.pragma(`user_version = ${m.version}`);
    }).immediate();
  }
}

function checkOrder(migrations: readonly Migration[]): void {
  migrations.forEach((m, i) => {
    if (m.version !== i + 1) throw new Error(`Migration ${m.name} has version ${m.version}, expected ${i + 1}.`);
  });
}

/** Keeps one consistent copy of the store as it was before the newest migration. */
function backupBeforeMigration(db: Database.Database, path: string, version: number): void {
  if (path === ':memory:') return;
  const target = `${path}.before-migration-v${version}.bak`;
  if (existsSync(target)) rmSync(target);
  db.prepare('VACUUM INTO ?').run(target);
}
