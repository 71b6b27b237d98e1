// Paired clients and their tokens (table `clients`). A token is 256 random bits shown once; only
// its SHA-256 is stored. Lookup goes through the hash index, then a constant-time comparison.
import { cachedStatement } from './statements.js';
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
  /** The address of its last request (recorded with last_used_at). */
  last_address: string | null;
  revoked_at: number | null;
}

interface ClientRow {
  id: string;
  name: string;
  token_hash: string;
  scopes: string;
  created_at: number;
  last_used_at: number | null;
  last_address: string | null;
  revoked_at: number | null;
}

export const TOKEN_PREFIX = 'sk-sanad-';

/** Both tables of clients: the paired and made ones, and CLI commands' temporary ones. */
const CLIENT_TABLES = ['clients', 'temporary_clients'] as const;

export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

function toClient(row: ClientRow): Client {
  const parsed: unknown = JSON.parse(row.scopes);
  const scopes = Array.isArray(parsed) ? parsed.filter((s): s is Scope => typeof s === 'string' && isScope(s)) : [];
  return {
    id: row.id,
    name: row.name,
    scopes,
    created_at: row.created_at,
    last_used_at: row.last_used_at,
    last_address: row.last_address,
    revoked_at: row.revoked_at,
  };
}

/**
 * A new client and its token (shown once). `temporary`: the short-lived admin client a CLI command
 * makes to ask the running service, revoked right after. It lives in its own table,
 * `temporary_clients`, which every backup generation leaves empty (backup/generation/store-copy.ts):
 * a backup made while a command asks holds no credential of that command's.
 */
export function createClient(db: Db, name: string, scopes: Scope[], nowS: number, options: { temporary?: boolean } = {}): { client: Client; token: string } {
  const token = TOKEN_PREFIX + randomBytes(32).toString('base64url');
  const id = newId('client');
  const unique = [...new Set(scopes)];
  db.prepare(`INSERT INTO ${options.temporary ? 'temporary_clients' : 'clients'}(id, name, token_hash, scopes, created_at) VALUES (?, ?, ?, ?, ?)`).run(
    id,
    name,
    hashToken(token),
    JSON.stringify(unique),
    nowS,
  );
  return { client: { id, name, scopes: unique, created_at: nowS, last_used_at: null, last_address: null, revoked_at: null }, token };
}

/** The live client a token belongs to, or null (unknown or revoked). */
/** A CLI command's temporary admin client stops working after this long without a request (the
 *  command polls while it waits), so a killed command leaves no admin token that lives on. */
export const TEMPORARY_IDLE_S = 10 * 60;

const byTokenHash = cachedStatement<[string, string], ClientRow & { temporary: number }>(
  'SELECT *, 0 AS temporary FROM clients WHERE token_hash = ? UNION ALL SELECT *, 1 AS temporary FROM temporary_clients WHERE token_hash = ?',
);

export function findClientByToken(db: ReadableDB, token: string, nowS?: number): Client | null {
  const hash = hashToken(token);
  const row = byTokenHash(db).get(hash, hash);
  if (!row || row.revoked_at !== null) return null;
  if (row.temporary === 1 && nowS !== undefined && nowS - Math.max(row.created_at, row.last_used_at ?? 0) > TEMPORARY_IDLE_S) return null;
  const a = Buffer.from(row.token_hash, 'hex');
  const b = Buffer.from(hash, 'hex');
  return a.length === b.length && timingSafeEqual(a, b) ? toClient(row) : null;
}

/** Records use at most once a minute per client (or at once from a new address), so
 *  authentication does not write on every call. */
export function touchClient(db: Db, client: Client, nowS: number, address: string | null = null): void {
  const moved = address !== null && address !== client.last_address;
  if (!moved && client.last_used_at !== null && nowS - client.last_used_at < 60) return;
  const where = address ?? client.last_address;
  for (const table of CLIENT_TABLES) db.prepare(`UPDATE ${table} SET last_used_at = ?, last_address = ? WHERE id = ?`).run(nowS, where, client.id);
  client.last_used_at = nowS;
  client.last_address = where;
}

export function listClients(db: ReadableDB): Client[] {
  return db.prepare<[], ClientRow>('SELECT * FROM clients UNION ALL SELECT * FROM temporary_clients ORDER BY id DESC').all().map(toClient);
}

export function getClient(db: Db, id: string): Client | null {
  const row = db.prepare<[string, string], ClientRow>('SELECT * FROM clients WHERE id = ? UNION ALL SELECT * FROM temporary_clients WHERE id = ?').get(id, id);
  return row ? toClient(row) : null;
}

/** At start no command can be asking this service yet: a temporary client still live was left by
 *  a command that died, and is revoked. */
export function revokeStaleTemporaryClients(db: Db, nowS: number): number {
  return db.prepare('UPDATE temporary_clients SET revoked_at = ? WHERE revoked_at IS NULL').run(nowS).changes;
}

/** Revokes a client; its token stops working on the next request. Returns false if unknown. */
export function revokeClient(db: Db, id: string, nowS: number): boolean {
  let changed = 0;
  for (const table of CLIENT_TABLES) changed += db.prepare(`UPDATE ${table} SET revoked_at = COALESCE(revoked_at, ?) WHERE id = ?`).run(nowS, id).changes;
  return changed > 0;
}
