// One-time pairing codes (`XXXX-XXXX`). Stored hashed; redeeming one is a single UPDATE that only
// succeeds on an unused, unexpired code, so a code can never pair two clients.
import { createHash, randomInt } from 'node:crypto';
import { createClient, isScope, type Client, type Scope } from './clients.js';
import type { Db } from './open.js';

// No 0/O, 1/I/L: codes are read off a screen and typed by hand.
const CODE_ALPHABET = '23456789ABCDEFGHJKMNPQRSTUVWXYZ';

function hashCode(code: string): string {
  return createHash('sha256')
    .update(code.toUpperCase().replace(/[^0-9A-Z]/g, ''), 'utf8')
    .digest('hex');
}

export function createPairingCode(db: Db, scopes: Scope[], ttlS: number, nowS: number): { code: string; expires_at: number } {
  const raw = Array.from({ length: 8 }, () => CODE_ALPHABET[randomInt(CODE_ALPHABET.length)]).join('');
  const code = `${raw.slice(0, 4)}-${raw.slice(4)}`;
  const expires_at = nowS + ttlS;
  db.prepare('INSERT INTO pairing_codes(code_hash, scopes, created_at, expires_at) VALUES (?, ?, ?, ?)').run(
    hashCode(code),
    JSON.stringify([...new Set(scopes)]),
    nowS,
    expires_at,
  );
  return { code, expires_at };
}

/** Redeems a code for a new client, or returns null for a used, expired or unknown code. */
export function redeemPairingCode(db: Db, code: string, clientName: string, nowS: number): { client: Client; token: string } | null {
  return db.transaction(() => {
    const row = db
      .prepare<[string, number], { scopes: string }>('SELECT scopes FROM pairing_codes WHERE code_hash = ? AND used_at IS NULL AND expires_at > ?')
      .get(hashCode(code), nowS);
    if (!row) return null;
    const parsed: unknown = JSON.parse(row.scopes);
    const scopes = Array.isArray(parsed) ? parsed.filter((s): s is Scope => typeof s === 'string' && isScope(s)) : [];
    const made = createClient(db, clientName, scopes, nowS);
    db.prepare('UPDATE pairing_codes SET used_at = ?, client_id = ? WHERE code_hash = ?').run(nowS, made.client.id, hashCode(code));
    return made;
  })();
}

/** Drops codes that expired more than a day ago. */
export function sweepPairingCodes(db: Db, nowS: number): number {
  return db.prepare('DELETE FROM pairing_codes WHERE expires_at < ?').run(nowS - 86_400).changes;
}
