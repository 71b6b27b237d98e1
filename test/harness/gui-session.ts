// Signing in as the GUI does, without a browser: the login link's code is traded with POST /login
// for a session token (never a cookie), sent back as the X-Sanad-Session header.
export interface SignIn {
  status: number;
  token: string | null;
}

/** Redeems the code of a login link (http://HOST:PORT/login?code=…) at that link's origin. */
export async function signInWithLink(loginUrl: string): Promise<SignIn> {
  const url = new URL(loginUrl);
  const res = await fetch(`${url.origin}/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ code: url.searchParams.get('code') ?? '' }),
  });
  const body: unknown = await res.json().catch(() => null);
  const token = typeof body === 'object' && body !== null && 'token' in body && typeof body.token === 'string' ? body.token : null;
  return { status: res.status, token };
}

export const sessionHeader = (token: string): Record<string, string> => ({ 'x-sanad-session': token });
