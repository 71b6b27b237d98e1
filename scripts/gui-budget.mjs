#!/usr/bin/env node
// The GUI's size budget, measured on the production build in dist/gui: the gzip size of all
// JavaScript and of all CSS a first load fetches. npm test runs this after the build and fails when
// the bundle outgrows the budget, so growth is a decision, not an accident.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

const BUDGET = { js: 160 * 1024, css: 16 * 1024 };
const dir = join(new URL('..', import.meta.url).pathname, 'dist', 'gui', 'assets');

const totals = { js: 0, css: 0 };
const raw = { js: 0, css: 0 };
for (const name of readdirSync(dir)) {
  const kind = name.endsWith('.js') ? 'js' : name.endsWith('.css') ? 'css' : null;
  if (!kind) continue;
  const bytes = readFileSync(join(dir, name));
  raw[kind] += bytes.length;
  totals[kind] += gzipSync(bytes, { level: 9 }).length;
}
const kib = (n) => `${(n / 1024).toFixed(1)} KiB`;
let over = false;
for (const kind of ['js', 'css']) {
  const ok = totals[kind] <= BUDGET[kind];
  over ||= !ok;
  console.log(`GUI ${kind}: ${kib(totals[kind])} gzip (${kib(raw[kind])} raw), budget ${kib(BUDGET[kind])} gzip${ok ? '' : '  <-- OVER BUDGET'}`);
}
process.exit(over ? 1 : 0);
