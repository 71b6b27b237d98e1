// What the QR code on the pairing screen holds, for a phone's camera: where to pair, the code, and
// the certificate fingerprint to pin before the code is sent (docs/api.md, Devices on the network).
export function pairingUri(lanUrl: string, code: string, fingerprint: string): string {
  const q = new URLSearchParams({ url: lanUrl, code, fp: fingerprint });
  return `lmsp://pair?${q.toString()}`;
}

/** A SHA-256 fingerprint in groups of four hex digits, for reading aloud and comparing by eye. */
export function groupFingerprint(hex: string): string {
  return (hex.match(/.{1,4}/g) ?? []).join(' ');
}
