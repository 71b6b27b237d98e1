#!/usr/bin/env node
// The layer check (npm test runs it): every relative import between the project's own files must go
// down the layers below or stay in its own folder, and no files may import each other in a circle.
// The layers are written once here and drawn in docs/development.md. A lower layer never imports a
// higher one: the store knows nothing of backups, a backup knows nothing of HTTP.
import ts from 'typescript';
import { readFileSync, readdirSync, statSync, existsSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const root = resolve(new URL('..', import.meta.url).pathname);

/** Bottom first. A file may import files of its own layer's folders only when the folder is the same,
 *  and any folder of a lower layer. `contract` is the wire contract the renderer shares. */
export const LAYERS = [
  ['src/contract'],
  ['src/clock.ts'],
  ['src/demo'],
  ['src/ids.ts', 'src/version.ts'],
  ['src/log'],
  ['src/process'],
  ['src/files'],
  ['src/store'],
  ['src/secrets'],
  // restic, the backup targets, the generation format, the backup lock: what backup, restore and
  // drill all stand on.
  ['src/repository'],
  ['src/engine'],
  ['src/tasks'],
  ['src/turns'],
  ['src/schedule'],
  ['src/backup'],
  ['src/restore'],
  ['src/drill'],
  ['src/history'],
  ['src/doctor'],
  ['src/jobs'],
  ['src/service'],
  ['src/appliance'],
  ['src/cli', 'electron'],
  // Build-time helpers (packaging): never imported by the running app.
  ['build'],
];
/** The GUI is its own program: it may import only itself and the wire contract. */
const RENDERER = 'renderer/src';
const ROOTS = ['src', 'electron', 'build', RENDERER];

function walk(dir, out = []) {
  for (const name of readdirSync(dir)) {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) walk(full, out);
    else if (/\.(ts|tsx|cts|mts)$/.test(name) && !name.endsWith('.d.ts')) out.push(full);
  }
  return out;
}

/** The unit a file belongs to: its layer entry (a folder or a single root file). */
function unitOf(rel) {
  if (rel.startsWith(`${RENDERER}/`)) return { layer: -1, unit: RENDERER };
  for (let i = 0; i < LAYERS.length; i++) {
    for (const unit of LAYERS[i]) if (rel === unit || rel.startsWith(`${unit}/`)) return { layer: i, unit };
  }
  return null;
}

function resolveImport(from, spec) {
  const base = resolve(dirname(from), spec);
  const candidates = [
    base,
    base.replace(/\.js$/, '.ts'),
    base.replace(/\.js$/, '.tsx'),
    base.replace(/\.cjs$/, '.cts'),
    `${base}.ts`,
    `${base}.tsx`,
    join(base, 'index.ts'),
  ];
  return candidates.find((c) => existsSync(c) && statSync(c).isFile()) ?? null;
}

export function checkLayers() {
  const problems = [];
  const files = ROOTS.flatMap((r) => walk(join(root, r))).filter((f) => !f.includes('/node_modules/'));
  const graph = new Map();
  for (const file of files) {
    const rel = relative(root, file);
    const from = unitOf(rel);
    if (from === null) {
      problems.push(`${rel}: in no layer; add its folder to LAYERS in scripts/check-layers.mjs`);
      continue;
    }
    const targets = [];
    const info = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    for (const imported of info.importedFiles) {
      if (!imported.fileName.startsWith('.')) continue;
      const target = resolveImport(file, imported.fileName);
      if (target === null) continue; // tsc reports a missing file; this check is about direction.
      const trel = relative(root, target);
      targets.push(trel);
      const to = unitOf(trel);
      if (to === null) continue;
      if (from.unit === RENDERER || to.unit === RENDERER) {
        if (from.unit !== to.unit && to.unit !== 'src/contract') problems.push(`${rel} imports ${trel}: the GUI may import only renderer/ and src/contract/`);
        continue;
      }
      if (to.layer > from.layer) problems.push(`${rel} imports ${trel}: ${to.unit} is above ${from.unit}`);
      else if (to.layer === from.layer && to.unit !== from.unit)
        problems.push(`${rel} imports ${trel}: ${from.unit} and ${to.unit} are side by side; one must go below the other`);
    }
    graph.set(rel, targets);
  }
  problems.push(...findCycles(graph).map((c) => `import circle: ${c.join(' -> ')}`));
  return problems;
}

/** Tarjan's strongly connected components; every component of more than one file is a circle. */
function findCycles(graph) {
  let index = 0;
  const stack = [];
  const meta = new Map();
  const cycles = [];
  const visit = (v) => {
    meta.set(v, { index, low: index, onStack: true });
    index++;
    stack.push(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!meta.has(w)) {
        visit(w);
        meta.get(v).low = Math.min(meta.get(v).low, meta.get(w).low);
      } else if (meta.get(w).onStack) meta.get(v).low = Math.min(meta.get(v).low, meta.get(w).index);
    }
    if (meta.get(v).low === meta.get(v).index) {
      const component = [];
      let w;
      do {
        w = stack.pop();
        meta.get(w).onStack = false;
        component.push(w);
      } while (w !== v);
      if (component.length > 1) cycles.push(component.sort());
    }
  };
  for (const v of graph.keys()) if (!meta.has(v)) visit(v);
  return cycles;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const problems = checkLayers();
  for (const p of problems) console.error(p);
  if (problems.length > 0) {
    console.error(`\nThe layer check failed (${problems.length}). The layers, bottom first, are in scripts/check-layers.mjs and docs/development.md.`);
    process.exit(1);
  }
  console.log('layers: every import goes down, no circles');
}
