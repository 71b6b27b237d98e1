import type Database from 'better-sqlite3';

/** One schema step. Never edit a released migration: add the next one. */
export interface Migration {
  version: number;
  name: string;
  up(db: Database.Database): void;
}
