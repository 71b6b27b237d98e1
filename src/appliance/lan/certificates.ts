// Where the device certificates live: one vault value (sealed with the vault key like every other
// secret, so the private keys are never plain in the data dir, and a backup carries them: a
// restored Sanad keeps its devices). Made on first need; the listener's own certificate is made
// again, under the same authority, when the machine's names change or it nears its end.
import { X509Certificate } from 'node:crypto';
import {
  fingerprintSha256,
  issueLeaf,
  leafNeedsRenewal,
  makeAuthority,
  parseDeviceCertificates,
  type DeviceCertificates,
} from '../../secrets/device-certificate.js';
import type { Vault } from '../../secrets/vault.js';

export const CERTIFICATES_SECRET = 'sanad:device-certificates';

export interface LoadedCertificates extends DeviceCertificates {
  fingerprint: string;
  /** When the listener's certificate ends (unix seconds); it is re-made well before. */
  leafExpiresAt: number;
  /** True when this call made or re-made something (the TLS context must be swapped). */
  changed: boolean;
}

export async function ensureDeviceCertificates(
  vault: Vault,
  hostName: string,
  names: string[],
  now: Date,
  options: { newAuthority?: boolean } = {},
): Promise<LoadedCertificates> {
  const stored = options.newAuthority ? null : parseDeviceCertificates(vault.get(CERTIFICATES_SECRET));
  let certs = stored;
  if (certs === null) {
    const authority = await makeAuthority(hostName, now);
    certs = { authority, leaf: await issueLeaf(authority, names, now), names };
  } else if (leafNeedsRenewal(certs, names, now)) {
    certs = { authority: certs.authority, leaf: await issueLeaf(certs.authority, names, now), names };
  }
  const changed = certs !== stored;
  if (changed) vault.set(CERTIFICATES_SECRET, JSON.stringify(certs));
  const leafExpiresAt = Math.floor(new Date(new X509Certificate(certs.leaf.certPem).validTo).getTime() / 1000);
  return { ...certs, fingerprint: fingerprintSha256(certs.authority.certPem), leafExpiresAt, changed };
}
