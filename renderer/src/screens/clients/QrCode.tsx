// A QR code drawn as one SVG path from the `qrcode` library's module matrix: no canvas, no inline
// HTML (the GUI's Content-Security-Policy allows neither a data: image nor innerHTML here), and it
// scales crisply. Dark modules on a light quiet zone whatever the theme, as scanners expect.
import { create } from 'qrcode';

export function QrCode({ text, label, size = 192 }: { text: string; label: string; size?: number }) {
  const { modules } = create(text, { errorCorrectionLevel: 'M' });
  const n = modules.size;
  const quiet = 4;
  let d = '';
  for (let row = 0; row < n; row += 1) {
    for (let col = 0; col < n; col += 1) if (modules.get(row, col)) d += `M${col + quiet} ${row + quiet}h1v1h-1z`;
  }
  const span = n + quiet * 2;
  return (
    <svg
      className="qr-code"
      role="img"
      aria-label={label}
      width={size}
      height={size}
      viewBox={`0 0 ${span} ${span}`}
      shapeRendering="crispEdges"
      data-testid="pairing-qr"
      data-qr-text={text}
    >
      <rect width={span} height={span} fill="#fff" />
      <path d={d} fill="#000" />
    </svg>
  );
}
