#!/usr/bin/env node
// Draws the tray and app icons into build/icons/ (checked in; run again only to change them).
// No image library: shapes are measured per pixel with 4×4 supersampling and written as RGBA PNGs
// with node:zlib. Each tray state has its own colour AND its own glyph (check, up arrow, "!", "×"),
// so the state reads without relying on colour alone.
//   tray-<state>.png (16 px), tray-<state>@2x.png (32 px; Electron picks it on HiDPI screens),
//   icon.png (1024 px; electron-builder derives the .icns/.ico/Linux sizes from it).
import { Buffer } from 'node:buffer';
import { mkdirSync, writeFileSync } from 'node:fs';
import { deflateSync } from 'node:zlib';

const OUT = new URL('../build/icons/', import.meta.url);

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(buf) {
  let c = 0xffffffff;
  for (const b of buf) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function chunk(type, data) {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}
function png(size, pixel) {
  const rows = [];
  for (let y = 0; y < size; y++) {
    const row = Buffer.alloc(1 + size * 4);
    for (let x = 0; x < size; x++) row.set(pixel(x, y), 1 + x * 4);
    rows.push(row);
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0);
  ihdr.writeUInt32BE(size, 4);
  ihdr.set([8, 6, 0, 0, 0], 8);
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([signature, chunk('IHDR', ihdr), chunk('IDAT', deflateSync(Buffer.concat(rows), { level: 9 })), chunk('IEND', Buffer.alloc(0))]);
}

// Shapes in a unit square (0..1): distance from a point to a segment.
function segDist(px, py, [ax, ay, bx, by]) {
  const dx = bx - ax;
  const dy = by - ay;
  const t = Math.max(0, Math.min(1, ((px - ax) * dx + (py - ay) * dy) / (dx * dx + dy * dy || 1)));
  return Math.hypot(px - (ax + t * dx), py - (ay + t * dy));
}

const GLYPHS = {
  healthy: [
    [0.28, 0.52, 0.44, 0.68],
    [0.44, 0.68, 0.73, 0.34],
  ],
  running: [
    [0.5, 0.28, 0.5, 0.74],
    [0.5, 0.28, 0.31, 0.47],
    [0.5, 0.28, 0.69, 0.47],
  ],
  warning: [
    [0.5, 0.24, 0.5, 0.56],
    [0.5, 0.74, 0.5, 0.745],
  ],
  failing: [
    [0.32, 0.32, 0.68, 0.68],
    [0.68, 0.32, 0.32, 0.68],
  ],
};
const COLORS = { healthy: [46, 157, 91], running: [47, 111, 214], warning: [214, 150, 0], failing: [211, 58, 44] };

/** One pixel of a round badge with a white glyph; `stroke` is the glyph's half-width (unit square). */
function badge(size, color, glyph, stroke) {
  return (x, y) => {
    let inside = 0;
    let white = 0;
    for (let sy = 0; sy < 4; sy++) {
      for (let sx = 0; sx < 4; sx++) {
        const u = (x + (sx + 0.5) / 4) / size;
        const v = (y + (sy + 0.5) / 4) / size;
        if (Math.hypot(u - 0.5, v - 0.5) > 0.47) continue;
        inside++;
        if (glyph.some((s) => segDist(u, v, s) < stroke)) white++;
      }
    }
    if (inside === 0) return [0, 0, 0, 0];
    const w = white / inside;
    const mix = (c) => Math.round(c * (1 - w) + 255 * w);
    return [mix(color[0]), mix(color[1]), mix(color[2]), Math.round((255 * inside) / 16)];
  };
}

/** The app icon: a rounded teal square holding the healthy badge's check in white. */
function appIcon(size) {
  const teal = [31, 111, 120];
  return (x, y) => {
    let inside = 0;
    let white = 0;
    for (let sy = 0; sy < 4; sy++) {
      for (let sx = 0; sx < 4; sx++) {
        const u = (x + (sx + 0.5) / 4) / size;
        const v = (y + (sy + 0.5) / 4) / size;
        const r = 0.18;
        const cx = Math.min(Math.max(u, 0.06 + r), 0.94 - r);
        const cy = Math.min(Math.max(v, 0.06 + r), 0.94 - r);
        if (Math.hypot(u - cx, v - cy) > r) continue;
        inside++;
        const ring = Math.abs(Math.hypot(u - 0.5, v - 0.5) - 0.3) < 0.035;
        if (
          ring ||
          GLYPHS.healthy.some(
            (s) =>
              segDist(
                u,
                v,
                s.map((c) => 0.5 + (c - 0.5) * 0.62),
              ) < 0.04,
          )
        )
          white++;
      }
    }
    if (inside === 0) return [0, 0, 0, 0];
    const w = white / inside;
    const mix = (c) => Math.round(c * (1 - w) + 255 * w);
    return [mix(teal[0]), mix(teal[1]), mix(teal[2]), Math.round((255 * inside) / 16)];
  };
}

mkdirSync(OUT, { recursive: true });
for (const state of Object.keys(GLYPHS)) {
  writeFileSync(new URL(`tray-${state}.png`, OUT), png(16, badge(16, COLORS[state], GLYPHS[state], 0.085)));
  writeFileSync(new URL(`tray-${state}@2x.png`, OUT), png(32, badge(32, COLORS[state], GLYPHS[state], 0.07)));
}
writeFileSync(new URL('icon.png', OUT), png(1024, appIcon(1024)));
console.log(`Icons written to ${OUT.pathname}`);
