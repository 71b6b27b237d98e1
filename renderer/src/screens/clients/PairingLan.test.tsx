// The pairing screen while devices on the network are on: the address, the fingerprint in groups a
// person compares by eye, and a QR code that a real decoder (jsQR, as a phone's camera library
// would) reads back as the lmsp://pair link with all three. Off, it says where to switch it on.
import { cleanup, render, screen } from '@testing-library/react';
import jsQR from 'jsqr';
import { afterEach, describe, expect, test } from 'vitest';
import { setLanguage } from '../../i18n/i18n';
import { groupFingerprint, pairingUri } from './pairing-uri';
import { PairingCode } from './PairingCode';

const FP = '6cfb9c878f93b88493c3b81ca7d31c1e996096e59da9c381d1576525bbc9d155';
const LAN = { url: 'https://192.168.1.20:7438', fingerprint: FP };

/** The drawn SVG as pixels: each `M x y h1v1h-1z` module a SCALE×SCALE black square on white. */
function decodeSvg(svg: Element): string | null {
  const [, , w] = (svg.getAttribute('viewBox') ?? '').split(' ').map(Number);
  const span = w ?? 0;
  const SCALE = 6;
  const size = span * SCALE;
  const pixels = new Uint8ClampedArray(size * size * 4).fill(255);
  const d = svg.querySelector('path')?.getAttribute('d') ?? '';
  for (const m of d.matchAll(/M(\d+) (\d+)h1v1h-1z/g)) {
    const x = Number(m[1]);
    const y = Number(m[2]);
    for (let dy = 0; dy < SCALE; dy += 1) {
      for (let dx = 0; dx < SCALE; dx += 1) {
        const i = ((y * SCALE + dy) * size + x * SCALE + dx) * 4;
        pixels[i] = pixels[i + 1] = pixels[i + 2] = 0;
      }
    }
  }
  return jsQR(pixels, size, size)?.data ?? null;
}

describe('PairingCode with devices on the network', () => {
  afterEach(() => {
    cleanup();
    setLanguage('en');
  });

  test('shows the address and the grouped fingerprint, and its QR code decodes to the pairing link', async () => {
    render(<PairingCode code="ABCD-EFGH" deadlineMs={Date.now() + 600_000} lan={LAN} />);
    expect((await screen.findByTestId('pairing-lan-url')).textContent).toBe(LAN.url);
    expect(screen.getByTestId('pairing-fingerprint').textContent).toBe(groupFingerprint(FP));
    expect(groupFingerprint(FP).replace(/ /g, '')).toBe(FP);
    const decoded = decodeSvg(await screen.findByTestId('pairing-qr'));
    expect(decoded).toBe(pairingUri(LAN.url, 'ABCD-EFGH', FP));
    const link = new URL(decoded ?? '');
    expect(link.protocol).toBe('lmsp:');
    expect(link.searchParams.get('url')).toBe(LAN.url);
    expect(link.searchParams.get('code')).toBe('ABCD-EFGH');
    expect(link.searchParams.get('fp')).toBe(FP);
    expect(screen.getByRole('img', { name: /QR code/ })).toBeTruthy();
  });

  test('without the network listener: no QR, a pointer to the Settings switch (in Arabic too)', () => {
    render(<PairingCode code="ABCD-EFGH" deadlineMs={Date.now() + 600_000} />);
    expect(screen.queryByTestId('pairing-qr')).toBeNull();
    expect(screen.getByTestId('pairing-lan-off').textContent).toMatch(/Let devices on this network use Sanad/);
    cleanup();
    setLanguage('ar');
    render(<PairingCode code="ABCD-EFGH" deadlineMs={Date.now() + 600_000} />);
    expect(screen.getByTestId('pairing-lan-off').textContent).toMatch(/السماح لأجهزة هذه الشبكة/);
  });
});
