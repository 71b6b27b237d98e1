// The GUI's sign-in. A one-time code (from the login link `sanad serve` prints, or from the desktop
// shell's preload) is traded once with POST /login for a session token. The token lives in
// sessionStorage, which belongs to this tab and this origin (port included), and goes out only as
// the X-Sanad-Session header of this page's own requests: unlike a cookie, a browser never hands it
// to another port of 127.0.0.1.
import { z } from 'zod/v3';

const KEY = 'sanad.session';
export const SESSION_HEADER = 'X-Sanad-Session';

const LoginAnswer = z.object({ token: z.string().min(1), expires_at: z.number() });

function storage(): Storage | null {
  try {
    return typeof sessionStorage === 'undefined' ? null : sessionStorage;
  } catch {
    return null; // storage disabled: the session lasts as long as the page (memory below)
  }
}

let memory: string | null = null;

export function sessionTokenNow(): string | null {
  return storage()?.getItem(KEY) ?? memory;
}

function keep(token: string | null): void {
  memory = token;
  const s = storage();
  if (s === null) return;
  if (token === null) s.removeItem(KEY);
  else s.setItem(KEY, token);
}

/** The header this page's requests carry (none when signed out). */
export function sessionHeaders(): Record<string, string> {
  const token = sessionTokenNow();
  return token === null ? {} : { [SESSION_HEADER]: token };
}

/** Trades a one-time code for a session; false when the code was refused (used, old, wrong). */
export async function signInWithCode(code: string): Promise<boolean> {
  const res = await fetch('/login', {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify({ code }),
  }).catch(() => null);
  if (res === null || !res.ok) return false;
  const parsed = LoginAnswer.safeParse(await res.json().catch(() => null));
  if (!parsed.success) return false;
  keep(parsed.data.token);
  return true;
}

/** This page was opened by a login link the service refused (used, older than 10 minutes, wrong). */
let refusedLink = false;
export function loginLinkRefused(): boolean {
  return refusedLink;
}

/** Opened by the login link (/login?code=…[#/screen]): redeem it and take the code out of the address bar and history. */
export async function signInFromLink(): Promise<void> {
  if (typeof location === 'undefined' || location.pathname !== '/login') return;
  const code = new URLSearchParams(location.search).get('code');
  history.replaceState(null, '', `/${location.hash}`);
  // A refused link is said as such on the signed-out page, not as "never signed in".
  if (code !== null && code !== '') refusedLink = !(await signInWithCode(code));
}

/** Ends the session on the server and here. */
export async function signOut(): Promise<void> {
  const headers = sessionHeaders();
  keep(null);
  await fetch('/admin/logout', { method: 'POST', headers }).catch(() => null);
}
