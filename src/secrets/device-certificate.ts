// The certificates of the network listener. Two of them, so a device's pin outlives a new address:
// a small authority (self-signed, ECDSA P-256, 20 years) is what a device trusts and what the
// pairing screen's fingerprint names; it signs the listener's own certificate, which carries the
// machine's current names and addresses and is re-made (same authority, so the pin holds) when they
// change or before it expires. "A new certificate" makes a new authority: every device pins again.
// @peculiar/x509 resolves its ASN.1 helpers through tsyringe, which needs the Reflect metadata
// polyfill loaded first; ES module imports run in order, so this line must stay above it.
import 'reflect-metadata';
import { X509Certificate, webcrypto } from 'node:crypto';

type CryptoKey = webcrypto.CryptoKey;
type CryptoKeyPair = webcrypto.CryptoKeyPair;
import * as x509 from '@peculiar/x509';

const ALGORITHM = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;
const SIGNING = { name: 'ECDSA', hash: 'SHA-256' } as const;
const DAY_MS = 86_400_000;
/** The authority lives long: replacing it is the "new certificate" action, never a surprise. */
export const AUTHORITY_DAYS = 20 * 365;
/** Apple's clients refuse server certificates valid for more than 825 days; 397 is what the web uses. */
export const LEAF_DAYS = 397;
/** Re-made this long before it expires. */
export const RENEW_BEFORE_DAYS = 30;

export interface CertificatePair {
  /** PKCS#8 PEM of the private key. */
  keyPem: string;
  certPem: string;
}

export interface DeviceCertificates {
  authority: CertificatePair;
  leaf: CertificatePair;
  /** The names the leaf was made for (DNS names and IP addresses), as given. */
  names: string[];
}

x509.cryptoProvider.set(webcrypto);

function keyPem(pkcs8: ArrayBuffer): string {
  const b64 = Buffer.from(pkcs8).toString('base64').replace(/.{64}/g, '$&\n');
  return `-----BEGIN PRIVATE KEY-----\n${b64.trimEnd()}\n-----END PRIVATE KEY-----\n`;
}

async function importKey(pem: string): Promise<CryptoKey> {
  const der = Buffer.from(pem.replace(/-----[A-Z ]+-----/g, '').replace(/\s+/g, ''), 'base64');
  return webcrypto.subtle.importKey('pkcs8', der, { name: 'ECDSA', namedCurve: 'P-256' }, false, ['sign']);
}

async function newKeys(): Promise<CryptoKeyPair> {
  return webcrypto.subtle.generateKey(ALGORITHM, true, ['sign', 'verify']);
}

function serial(): string {
  // Positive (top bit clear), 16 bytes: what RFC 5280 asks of a serial number.
  const bytes = webcrypto.getRandomValues(new Uint8Array(16));
  bytes[0] = (bytes[0] ?? 0) & 0x7f;
  return Buffer.from(bytes).toString('hex');
}

const IPV4 = /^\d{1,3}(\.\d{1,3}){3}$/;
function isIp(name: string): boolean {
  return IPV4.test(name) || name.includes(':');
}

export async function makeAuthority(hostName: string, now: Date): Promise<CertificatePair> {
  const keys = await newKeys();
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: serial(),
    name: `CN=Sanad device authority (${hostName.replace(/[,+="\\<>;#]/g, ' ')})`,
    notBefore: new Date(now.getTime() - DAY_MS),
    notAfter: new Date(now.getTime() + AUTHORITY_DAYS * DAY_MS),
    signingAlgorithm: SIGNING,
    keys,
    extensions: [
      new x509.BasicConstraintsExtension(true, 0, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign | x509.KeyUsageFlags.digitalSignature, true),
      await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
    ],
  });
  return { keyPem: keyPem(await webcrypto.subtle.exportKey('pkcs8', keys.privateKey)), certPem: cert.toString('pem') + '\n' };
}

/** The listener's certificate for `names` (host names and addresses), signed by `authority`. */
export async function issueLeaf(authority: CertificatePair, names: string[], now: Date): Promise<CertificatePair> {
  const keys = await newKeys();
  const ca = new x509.X509Certificate(authority.certPem);
  const first = names[0] ?? 'sanad';
  const cert = await x509.X509CertificateGenerator.create({
    serialNumber: serial(),
    subject: `CN=${first}`,
    issuer: ca.subject,
    notBefore: new Date(now.getTime() - DAY_MS),
    notAfter: new Date(now.getTime() + LEAF_DAYS * DAY_MS),
    signingAlgorithm: SIGNING,
    publicKey: keys.publicKey,
    signingKey: await importKey(authority.keyPem),
    extensions: [
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
      new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth]),
      new x509.SubjectAlternativeNameExtension(names.map((n) => ({ type: isIp(n) ? 'ip' : 'dns', value: n }))),
      await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
      // Python's ssl (3.13, VERIFY_X509_STRICT) refuses a chain whose leaf does not name its issuer's key.
      await x509.AuthorityKeyIdentifierExtension.create(await ca.publicKey.export()),
    ],
  });
  return { keyPem: keyPem(await webcrypto.subtle.exportKey('pkcs8', keys.privateKey)), certPem: cert.toString('pem') + '\n' };
}

/** The SHA-256 fingerprint of a PEM certificate's DER, lower-case hex without separators. */
export function fingerprintSha256(certPem: string): string {
  return new X509Certificate(certPem).fingerprint256.replace(/:/g, '').toLowerCase();
}

/** Whether the leaf must be made again: other names than wanted, or near its end. */
export function leafNeedsRenewal(certs: DeviceCertificates, names: string[], now: Date): boolean {
  const wanted = new Set(names);
  if (certs.names.length !== wanted.size || certs.names.some((n) => !wanted.has(n))) return true;
  const validTo = new Date(new X509Certificate(certs.leaf.certPem).validTo).getTime();
  return validTo - now.getTime() < RENEW_BEFORE_DAYS * DAY_MS;
}

/** The certificates the vault keeps, parsed; null for anything that is not them. */
export function parseDeviceCertificates(text: string | null): DeviceCertificates | null {
  if (text === null) return null;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null) return null;
  const pair = (v: unknown): CertificatePair | null =>
    typeof v === 'object' && v !== null && 'keyPem' in v && 'certPem' in v && typeof v.keyPem === 'string' && typeof v.certPem === 'string'
      ? { keyPem: v.keyPem, certPem: v.certPem }
      : null;
  const authority = 'authority' in value ? pair(value.authority) : null;
  const leaf = 'leaf' in value ? pair(value.leaf) : null;
  const names = 'names' in value && Array.isArray(value.names) ? value.names.filter((n): n is string => typeof n === 'string') : null;
  return authority && leaf && names ? { authority, leaf, names } : null;
}
