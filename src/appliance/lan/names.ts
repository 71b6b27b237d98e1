// The names a device may use for this machine: its host name, `<host>.local` (mDNS), its current
// IPv4 network addresses and the loopback ones (a client on the desktop itself). The listener's
// certificate carries exactly these, and the Host check accepts exactly these.
import { hostname, networkInterfaces, type NetworkInterfaceInfo } from 'node:os';

type Interfaces = NodeJS.Dict<NetworkInterfaceInfo[]>;

/** The machine's IPv4 addresses on a network (not loopback), in interface order. */
export function lanAddresses(interfaces: Interfaces = networkInterfaces()): string[] {
  const out: string[] = [];
  for (const list of Object.values(interfaces)) {
    for (const info of list ?? []) {
      // IPv4 only: the listener binds 0.0.0.0 (an IPv6 link-local address also needs a zone in every URL).
      if (info.family === 'IPv4' && !info.internal && !out.includes(info.address)) out.push(info.address);
    }
  }
  return out;
}

/** A host name as DNS allows it in a certificate (lower case, letters, digits, hyphens, dots). */
export function dnsName(name: string): string | null {
  const n = name.trim().toLowerCase().replace(/\.$/, '');
  return /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/.test(n) && n.length <= 253 ? n : null;
}

export function lanNames(host: string = hostname(), interfaces: Interfaces = networkInterfaces()): string[] {
  const base = dnsName(host);
  const dns = base === null ? [] : base.endsWith('.local') ? [base] : [base, `${base.split('.')[0] ?? base}.local`];
  return [...new Set([...dns, ...lanAddresses(interfaces), 'localhost', '127.0.0.1'])];
}
