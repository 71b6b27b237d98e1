#!/usr/bin/env node
// Registers a tiny generated demo model (it answers "OK,demo!" to anything and ends, fast) in the data
// dir when no model is registered yet, so a fresh install can serve a request at once. Replace it
// with a real GGUF model: `sanad models add /path/to/model.gguf`.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { resolveDataDir } from '../dist/src/appliance/data-dir.js';
import { systemClock } from '../dist/src/clock.js';
import { ModelRegistry } from '../dist/src/engine/registry.js';
import { writeTinyModel } from '../dist/src/demo/tiny-model.js';
import { openStore, storePath } from '../dist/src/store/open.js';

const dataDir = resolveDataDir(undefined);
const db = openStore(storePath(dataDir));
try {
  const registry = new ModelRegistry(db, systemClock);
  if ((await registry.list()).length > 0) {
    console.log('A model is already registered; no demo model needed.');
  } else {
    const dir = join(dataDir, 'models');
    mkdirSync(dir, { recursive: true });
    const path = join(dir, 'tiny-demo.gguf');
    await writeTinyModel(path, { seed: 7 });
    await registry.add(path, 'tiny-demo');
    console.log(`Registered the demo model "tiny-demo" (${path}).`);
  }
} finally {
  db.close();
}
