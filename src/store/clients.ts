// Paired clients and their tokens (table `clients`). A token is 256 random bits shown once; only
// its SHA-256 is stored. Lookup goes through the hash index, then a constant-time comparison.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { newId } from '../ids.js';
import { SCOPES, type Scope } from '../contract/clients.js';
import type { Db, ReadableDB } from './open.js';

export { SCOPES, type Scope };

export function isScope(value: string): value is Scope {
  return SCOPES.some((s) => s === value);
}

export interface Client {
  id: string;
  name: string;
  scopes: Scope[];
  created_at: number;
  last_used_at: number | null;
  revoked_at: number | null;
}

interface ClientRow {
  id: string;
  name: string;
  token_hash: string;
  scopes: string;
  created_at: number;
  last_used_at: number | null;
  revoked_at: number | null;
}

export const TOKEN_PREFIX = 'sk-sanad-';

export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

function toClient(row: ClientRow): Client {
  const parsed: unknown = JSON.parse(row.scopes);
  const scopes = Array.isArray(parsed) ? parsed.filter((s): s is Scope => typeof s === 'string' && isScope(s)) : [];
  return { id: row.id, name: row.name, scopes, created_at: row.created_at, last_used_at: row.last_used_at, revoked_at: row.revoked_at };
}

/**
 * A new client and its token (shown once). `temporary`: the short-lived admin client a CLI command
 * makes to ask the running service; it is deleted right after (deleteTemporaryClient), is not
 * listed, and is left out of every backup generation (backup/generation/store-copy.ts).
 */
export function createClient(db: Db, name: string, scopes: Scope[], nowS: number, options: { temporary?: boolean } = {}): { client: Client; token: string } {
  const token = TOKEN_PREFIX + randomBytes(32).toString('base64url');
  const id = newId('client');
  const unique = [...new Set(scopes)];
  db.prepare('INSERT INTO clients(id, name, token_hash, scopes, created_at, temporary) VALUES (?, ?, ?, ?, ?, ?)')
    .run(id, name, hashToken(token), JSON.stringify(unique), nowS, options.temporary ? 1 : 0);
  return { client: { id, name, scopes: unique, created_at: nowS, last_used_at: null, revoked_at: null }, token };
}

/** The live client a token belongs to, or null (unknown or revoked). */
export function findClientByToken(db: ReadableDB, token: string): Client | null {
  const hash = hashToken(token);
  const row = db.prepare<[string], ClientRow>('SELECT * FROM clients WHERE token_hash = ?').get(hash);
  if (!row || row.revoked_at !== null) return null;
  const a = Buffer.from(row.token_hash, 'hex');
  const b = Buffer.from(hash, 'hex');
  return a.length === b.length && timingSafeEqual(a, b) ? toClient(row) : null;
}

/** Records use at most once a minute per client, so authentication does not write on every call. */
export function touchClient(db: Db, client: Client, nowS: number): void {
  if (client.last_used_at !== null && nowS - client.last_used_at < 60) return;
  db.prepare('UPDATE clients SET last_used_at = ? WHERE id = ?').run(nowS, client.id);
  client.last_used_at = nowS;
}

export function listClients(db: ReadableDB): Client[] {
  return db.prepare<[], ClientRow>('SELECT * FROM clients WHERE temporary = 0 ORDER BY id DESC').all().map(toClient);
}

export function getClient(db: Db, id: string): Client | null {
  const row = db.prepare<[string], ClientRow>('SELECT * FROM clients WHERE id = ?').get(id);
  return row ? toClient(row) : null;
}

/** Revokes a client; its token stops working on the next request. Returns false if unknown. */
/** Removes a temporary client once its command is done (its token dies with it). */
export function deleteTemporaryClient(db: Db, id: string): boolean {
  return db.prepare('DELETE FROM clients WHERE id = ? AND temporary = 1').run(id).changes > 0;
}

/** Temporary clients in a copy of the store (a backup generation): none of them belongs there. */
export function dropTemporaryClients(db: Db): number {
  return db.prepare('DELETE FROM clients WHERE temporary = 1').run().changes;
}

export function revokeClient(db: Db, id: string, nowS: number): boolean {
  return db.prepare('UPDATE clients SET revoked_at = COALESCE(revoked_at, ?) WHERE id = ?').run(nowS, id).changes > 0;
}
