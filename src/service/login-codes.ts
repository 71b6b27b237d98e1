// The GUI's credentials in the headless shell: `sanad serve` prints a one-time login URL; opening
// it trades the code for a session cookie (HttpOnly, SameSite=Strict) and the code is gone. The
// desktop shell instead hands its per-launch token to the renderer through the preload.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

const sha = (s: string): Buffer => createHash('sha256').update(s, 'utf8').digest();

/** A new one-time code, not yet known to any LoginCodes (see `pending` below). */
export function newLoginCode(): string {
  return randomBytes(32).toString('base64url');
}

export class LoginCodes {
  private codeHash: Buffer | null;
  private readonly sessions = new Set<string>();

  /** `pending`: a code made before this instance existed (a switch of data dir hands the browser
   *  the next instance's login link before that instance starts); it works once, like any other. */
  constructor(pending?: string) {
    this.codeHash = pending ? sha(pending) : null;
  }

  /** A fresh one-time code; any earlier unused one stops working. */
  issue(): string {
    const code = newLoginCode();
    this.codeHash = sha(code);
    return code;
  }

  /** Redeems the one-time code for a session id, or null. */
  redeem(code: string): string | null {
    if (!this.codeHash || !timingSafeEqual(sha(code), this.codeHash)) return null;
    this.codeHash = null;
    const session = randomBytes(32).toString('base64url');
    this.sessions.add(createHash('sha256').update(session).digest('hex'));
    return session;
  }

  isSession(session: string): boolean {
    return this.sessions.has(createHash('sha256').update(session).digest('hex'));
  }

  endSession(session: string): void {
    this.sessions.delete(createHash('sha256').update(session).digest('hex'));
  }
}
