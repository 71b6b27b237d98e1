// Which URLs the window may show, which may go to the user's browser, and which frames may use the
// bridge. The window only ever shows the core's own origin (http://127.0.0.1:<port>); everything
// else is either handed to the browser after this check or dropped.
//
// External links: https only, to a public host, without credentials in the URL. Not http (a link
// would be readable and changeable on the way), never file:, javascript:, data:, blob: or custom
// schemes (they run code or open local files through the OS), and never a loopback, private or
// `.local` host: a page must not be able to make the user's browser reach local services, the core
// itself included. There is no fixed list of hosts: the GUI links to documentation and to the
// consoles of storage providers the user picked, and the browser is the right sandbox for the web.
import { isIP } from 'node:net';

export const MAX_EXTERNAL_URL = 2048;

function parse(url: string): URL | null {
  try {
    return new URL(url);
  } catch {
    return null;
  }
}

/** The core's origin (`http://127.0.0.1:PORT`) from its URL. */
export function originOf(url: string): string {
  const parsed = parse(url);
  if (parsed === null) throw new Error(`"${url}" is not a URL.`);
  return parsed.origin;
}

/** A page of the core itself: same origin, no credentials. Navigation and the bridge need this. */
export function isCoreUrl(url: string, coreOrigin: string): boolean {
  const u = parse(url);
  return u !== null && u.origin === coreOrigin && u.username === '' && u.password === '';
}

function isPrivateIPv4(host: string): boolean {
  const [a, b] = host.split('.').map(Number);
  if (a === undefined || b === undefined) return true;
  return (
    a === 0 ||
    a === 10 ||
    a === 127 ||
    (a === 169 && b === 254) ||
    (a === 172 && b >= 16 && b <= 31) ||
    (a === 192 && b === 168) ||
    (a === 100 && b >= 64 && b <= 127)
  );
}

function isPrivateIPv6(host: string): boolean {
  const h = host.toLowerCase();
  if (h === '::' || h === '::1') return true;
  if (h.startsWith('::ffff:')) return true; // IPv4-mapped: judged as IPv4 would be, so refuse outright
  return /^f[cd]/.test(h) || /^fe[89ab]/.test(h);
}

/** Hosts that are this machine or its local network. */
export function isLocalHost(hostname: string): boolean {
  const host = hostname
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '')
    .toLowerCase();
  if (
    host === '' ||
    host === 'localhost' ||
    host.endsWith('.localhost') ||
    host.endsWith('.local') ||
    host.endsWith('.internal') ||
    (!host.includes('.') && isIP(host) === 0)
  )
    return true;
  const kind = isIP(host);
  if (kind === 4) return isPrivateIPv4(host);
  if (kind === 6) return isPrivateIPv6(host);
  return false;
}

export type ExternalVerdict = { allowed: true; url: string } | { allowed: false; reason: string };

export function externalUrlVerdict(url: string, coreOrigin: string): ExternalVerdict {
  if (url.length > MAX_EXTERNAL_URL) return { allowed: false, reason: 'too long' };
  const u = parse(url);
  if (u === null) return { allowed: false, reason: 'not a URL' };
  if (u.protocol !== 'https:') return { allowed: false, reason: `scheme ${u.protocol} is not allowed` };
  if (u.username !== '' || u.password !== '') return { allowed: false, reason: 'credentials in the URL' };
  if (u.origin === coreOrigin) return { allowed: false, reason: 'the core itself' };
  if (isLocalHost(u.hostname)) return { allowed: false, reason: 'a local or private host' };
  return { allowed: true, url: u.href };
}

/** `will-navigate` / `will-redirect`: only within the core. */
export function navigationAllowed(url: string, coreOrigin: string): boolean {
  return isCoreUrl(url, coreOrigin);
}
