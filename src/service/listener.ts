// Which listener a request came in on, and the names it may carry. The main listener stays on this
// machine (loopback; the GUI and /admin); the network listener (devices, TLS, LMSP routes only)
// accepts exactly the names and addresses its certificate carries, and no browser page.
import type { ServiceContext } from './context.js';

const LOOPBACK_NAMES = ['127.0.0.1', 'localhost', '[::1]'];
const WILDCARDS = ['0.0.0.0', '::', '[::]'];

/** The host names a request may give: the loopback names, the address Sanad is bound to (unless a
 *  wildcard), and those named in SANAD_ALLOWED_HOSTS (comma-separated). Never "anything". */
export function allowedHostNames(host: string, env: NodeJS.ProcessEnv = process.env): string[] {
  const bound = bracketed(host);
  const extra = (env.SANAD_ALLOWED_HOSTS ?? '')
    .split(',')
    .map((h) => h.trim().toLowerCase())
    .filter((h) => h !== '');
  return [...new Set([...LOOPBACK_NAMES, ...(WILDCARDS.includes(host) ? [] : [bound.toLowerCase()]), ...extra])];
}

export interface ListenerPolicy {
  kind: 'local' | 'lan';
  /** The `Host` values (name:port, lower case) a request may give. */
  hosts(): string[];
  /** The `Origin` values a request may give (a page this listener served); none on the network. */
  origins(): string[];
  /** What a refused Host is told to use instead. */
  hostHint: string;
}

export function bracketed(name: string): string {
  return name.includes(':') && !name.startsWith('[') ? `[${name}]` : name;
}

export function localListener(ctx: Pick<ServiceContext, 'address'>): ListenerPolicy {
  const hosts = (): string[] => allowedHostNames(ctx.address.host).map((n) => `${n}:${ctx.address.port}`);
  return {
    kind: 'local',
    hosts,
    origins: () => hosts().map((h) => `http://${h}`),
    hostHint: 'use http://127.0.0.1 with its port (or a name listed in SANAD_ALLOWED_HOSTS)',
  };
}

/** The network listener's policy: `names()` are the certificate's current names. */
export function lanListener(names: () => string[], port: () => number): ListenerPolicy {
  return {
    kind: 'lan',
    hosts: () => names().map((n) => `${bracketed(n).toLowerCase()}:${port()}`),
    origins: () => [],
    hostHint: 'use one of the names the certificate carries (sanad client-config prints the address)',
  };
}
