// The GUI's credentials. `sanad serve` prints a one-time login link; the desktop shell hands a
// one-time code to its window through the preload. Either way the page trades the code (POST
// /login) for a session token that it keeps in sessionStorage and sends as `X-Sanad-Session`:
// never a cookie, because browsers hand cookies to every port of 127.0.0.1, so any other local
// server the browser visits would receive it. sessionStorage is per origin, and the origin
// includes the port.
//
// A code works once and for CODE_TTL_MS; a session ends after SESSION_IDLE_MS without a request,
// after SESSION_MAX_MS whatever happens, and on sign-out. Only hashes are kept.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { systemClock, type Clock } from '../clock.js';

export const CODE_TTL_MS = 10 * 60_000;
export const SESSION_IDLE_MS = 12 * 3_600_000;
export const SESSION_MAX_MS = 7 * 24 * 3_600_000;

const sha = (s: string): Buffer => createHash('sha256').update(s, 'utf8').digest();
const key = (token: string): string => sha(token).toString('hex');

/** A new one-time code, not yet known to any LoginCodes (see `pending` below). */
export function newLoginCode(): string {
  return randomBytes(32).toString('base64url');
}

export interface GuiSession {
  token: string;
  /** Unix ms: the session ends then at the latest (SESSION_MAX_MS after sign-in). */
  expiresAt: number;
}

export class LoginCodes {
  private code: { hash: Buffer; issuedAt: number } | null;
  private readonly sessions = new Map<string, { createdAt: number; lastUsedAt: number }>();

  /** `pending`: a code made before this instance existed (a switch of data dir hands the browser
   *  the next instance's login link before that instance starts); it works once, like any other. */
  constructor(
    pending?: string,
    private readonly clock: Clock = systemClock,
  ) {
    this.code = pending ? { hash: sha(pending), issuedAt: clock.now() } : null;
  }

  /** A fresh one-time code; any earlier unused one stops working. */
  issue(): string {
    const code = newLoginCode();
    this.code = { hash: sha(code), issuedAt: this.clock.now() };
    return code;
  }

  /** Redeems the one-time code for a session, or null (wrong, used, or older than CODE_TTL_MS). */
  redeem(code: string): GuiSession | null {
    const now = this.clock.now();
    const pending = this.code;
    if (!pending || now - pending.issuedAt > CODE_TTL_MS || !timingSafeEqual(sha(code), pending.hash)) return null;
    this.code = null;
    const token = randomBytes(32).toString('base64url');
    this.sessions.set(key(token), { createdAt: now, lastUsedAt: now });
    return { token, expiresAt: now + SESSION_MAX_MS };
  }

  /** True for a live session, and counts as its use; an expired one is forgotten. */
  isSession(token: string): boolean {
    const k = key(token);
    const s = this.sessions.get(k);
    if (s === undefined) return false;
    const now = this.clock.now();
    if (now - s.lastUsedAt > SESSION_IDLE_MS || now - s.createdAt > SESSION_MAX_MS) {
      this.sessions.delete(k);
      return false;
    }
    s.lastUsedAt = now;
    return true;
  }

  endSession(token: string): void {
    this.sessions.delete(key(token));
  }
}
