#!/usr/bin/env node
// The GUI's size budget, measured on the production build in dist/gui: the gzip size of all
// JavaScript and of all CSS a first load fetches. npm test runs this after the build and fails when
// the bundle outgrows the budget, so growth is a decision, not an accident.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

const BUDGET = { js: 160 * 1024, css: 16 * 1024 };
const dir = join(new URL('..', import.meta.url).pathname, 'dist', 'gui', 'assets');

// A screen loaded on demand (import()) is its own chunk: counted under `later`, not in what the first
// load fetches (index.html's script and stylesheet and their static imports). Each chunk is fetched
// when its screen first opens, so each has a budget of its own (what opening one screen costs), and
// all of them together a larger one (so on-demand code cannot grow without anyone noticing).
// 80 KiB since the Settings screen left the first load (8 KiB less at start, 10 KiB more here):
// what every start fetches shrank, what the rare screens fetch when opened grew by the same code.
const LATER_BUDGET = 80 * 1024;
const CHUNK_BUDGET = 16 * 1024;
// The tables that word the server's sayings (renderer/src/said/wordings-LL.ts) are one per language,
// and a session fetches only its own: the largest counts toward `later`, not their sum, so a new
// language costs no one anything, while each table still stays under the chunk budget.
const LANGUAGE_TABLE = /^wordings-[a-z]{2}-/;
let largestTable = 0;
const html = readFileSync(join(dir, '..', 'index.html'), 'utf8');
const first = new Set([...html.matchAll(/\/assets\/([^"]+\.(?:js|css))/g)].map((m) => m[1]));
for (const name of [...first]) {
  if (!name.endsWith('.js')) continue;
  const text = readFileSync(join(dir, name), 'utf8');
  // Static imports of the entry (vite's shared chunks) are fetched at once too.
  for (const m of text.matchAll(/^import[^'"]*["']\.\/([^"']+\.js)["']/gm)) first.add(m[1]);
}
const totals = { js: 0, css: 0 };
const raw = { js: 0, css: 0 };
let later = 0;
let chunkOver = false;
for (const name of readdirSync(dir)) {
  const kind = name.endsWith('.js') ? 'js' : name.endsWith('.css') ? 'css' : null;
  if (!kind) continue;
  const bytes = readFileSync(join(dir, name));
  const gz = gzipSync(bytes, { level: 9 }).length;
  if (!first.has(name)) {
    if (LANGUAGE_TABLE.test(name)) largestTable = Math.max(largestTable, gz);
    else later += gz;
    if (gz > CHUNK_BUDGET) {
      console.log(`GUI on-demand chunk ${name}: ${(gz / 1024).toFixed(1)} KiB gzip, budget ${(CHUNK_BUDGET / 1024).toFixed(1)} KiB  <-- OVER BUDGET`);
      chunkOver = true;
    }
    continue;
  }
  raw[kind] += bytes.length;
  totals[kind] += gz;
}
const kib = (n) => `${(n / 1024).toFixed(1)} KiB`;
let over = false;
for (const kind of ['js', 'css']) {
  const ok = totals[kind] <= BUDGET[kind];
  over ||= !ok;
  console.log(`GUI ${kind}: ${kib(totals[kind])} gzip (${kib(raw[kind])} raw), budget ${kib(BUDGET[kind])} gzip${ok ? '' : '  <-- OVER BUDGET'}`);
}
later += largestTable;
const laterOk = later <= LATER_BUDGET;
over ||= !laterOk;
console.log(
  `GUI screens loaded on demand: ${kib(later)} gzip (one language table, ${kib(largestTable)}), budget ${kib(LATER_BUDGET)} gzip${laterOk ? '' : '  <-- OVER BUDGET'}`,
);
process.exit(over || chunkOver ? 1 : 0);
