// SIGKILL during a generation (mid-copy of a large store, and with the manifest written but the
// folder not yet renamed) leaves only a `.partial`: it is not listed, and the next run removes it
// and succeeds.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { systemClock } from '../../../src/clock.js';
import { makeGeneration } from '../../../src/backup/generation/make-generation.js';
import { listGenerations } from '../../../src/backup/generation/staging.js';
import { openStore } from '../../../src/store/open.js';
import { prepareDataDir } from '../../harness/data-dir.js';
import { addFiller, integrity, openCopy } from './kit.js';
import { stagingDir, storePath } from '../../../src/files/data-dir-layout.js';

const CHILD = fileURLToPath(new URL('./fixtures/generation-child.js', import.meta.url));

/** Runs the child until it announces it froze at `step`, SIGKILLs it, and returns the epoch it used. */
async function killAt(dataDir: string, step: string): Promise<{ epoch: number; done: number | null; total: number | null }> {
  const child = spawn(process.execPath, [CHILD, dataDir, step], { stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise<NodeJS.Signals | null>((resolve) => child.once('exit', (_code, signal) => resolve(signal)));
  let err = '';
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  try {
    const frozen = await new Promise<{ epoch: number; done: number | null; total: number | null }>((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        const line = out.split('\n').find((l) => l.includes('"frozen"') || l.includes('"finished"'));
        if (!line) return;
        const parsed: unknown = JSON.parse(line);
        if (typeof parsed === 'object' && parsed !== null && 'epoch' in parsed && typeof parsed.epoch === 'number' && 'done' in parsed && 'total' in parsed) {
          const num = (v: unknown): number | null => (typeof v === 'number' ? v : null);
          resolve({ epoch: parsed.epoch, done: num(parsed.done), total: num(parsed.total) });
        } else reject(new Error(`the child did not freeze at ${step}: ${line}`));
      });
      void exited.then(() => reject(new Error(`the child exited before freezing at ${step}:\n${err}`)));
    });
    child.kill('SIGKILL');
    assert.equal(await exited, 'SIGKILL');
    return frozen;
  } finally {
    child.kill('SIGKILL');
  }
}

for (const step of ['copying_store', 'renaming'] as const) {
  test(`SIGKILL at ${step} leaves only a .partial, which the next run removes`, async () => {
    const prepared = await prepareDataDir();
    addFiller(prepared.dataDir, 64);
    const killed = await killAt(prepared.dataDir, step);
    const partialName = `${killed.epoch}.partial`;
    assert.deepEqual(readdirSync(stagingDir(prepared.dataDir)), [partialName]);
    assert.deepEqual(await listGenerations(prepared.dataDir), []);
    const partial = join(stagingDir(prepared.dataDir), partialName);
    if (step === 'copying_store') {
      assert.ok(killed.done !== null && killed.total !== null && killed.done < killed.total, `killed at ${String(killed.done)}/${String(killed.total)} pages`);
      assert.equal(existsSync(join(partial, 'manifest.json')), false);
    } else {
      // Everything written, even the manifest: still not a generation until the rename.
      assert.ok(statSync(join(partial, 'manifest.json')).isFile());
    }

    const db = openStore(storePath(prepared.dataDir));
    try {
      const next = await makeGeneration({ dataDir: prepared.dataDir, db, vaultKey: randomBytes(32), clock: systemClock, appVersion: 'test' });
      assert.deepEqual(next.removedPartials, [partial]);
      assert.ok(next.epoch > killed.epoch);
      assert.deepEqual(readdirSync(stagingDir(prepared.dataDir)), [String(next.epoch)]);
      assert.deepEqual(
        (await listGenerations(prepared.dataDir)).map((g) => g.epoch),
        [next.epoch],
      );
      const copy = openCopy(join(next.dir, 'sanad.db'));
      try {
        assert.equal(integrity(copy), 'ok');
        assert.equal(copy.prepare<[], { n: number }>('SELECT count(*) AS n FROM test_filler').get()?.n, Math.ceil((64 * 1024 * 1024) / 4000));
      } finally {
        copy.close();
      }
    } finally {
      db.close();
    }
  });
}
