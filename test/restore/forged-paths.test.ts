// A forged backup cannot make restore move files from outside its work folder: `..` in a store
// name, a model path that climbs out, a symbolic link restic restored on the way, a folder where a
// file should be. Each is refused in one sentence before any file moves; a good manifest still places.
// The target itself is claimed in one step with its check.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { placeFiles } from '../../src/restore/assemble.js';
import { ForgedPathError } from '../../src/restore/backup-paths.js';
import { prepareTarget, TargetChangedError } from '../../src/restore/target-dir.js';
import { tempDir } from '../harness/data-dir.js';

const item = (path: string) => ({ kind: 'sqlite' as const, path, size: 1, sha256: 'a'.repeat(64), tables: 1 });
const model = (path: string) => ({ kind: 'model' as const, path, size: 1, sha256: 'a'.repeat(64), model_id: 'm' });

function layout(): { root: string; filesDir: string; target: string; outside: string } {
  const root = tempDir('sanad-forged-');
  const filesDir = join(root, 'target', '.work', 'files');
  const target = join(root, 'target');
  mkdirSync(join(filesDir, 'gen', 'staging'), { recursive: true });
  mkdirSync(join(filesDir, 'models'), { recursive: true });
  writeFileSync(join(filesDir, 'gen', 'staging', 'sanad.db'), 'db');
  writeFileSync(join(filesDir, 'models', 'tiny.gguf'), 'model');
  const outside = join(root, 'precious.txt');
  writeFileSync(outside, 'not yours');
  return { root, filesDir, target, outside };
}

test('forged paths are refused before any file moves', async () => {
  const cases: Array<[string, (l: ReturnType<typeof layout>) => Parameters<typeof placeFiles>[0]]> = [
    [
      'a store name with ..',
      (l) => ({
        filesDir: l.filesDir,
        generationPath: '/gen/staging',
        target: l.target,
        stores: [item('../../../../precious.txt')],
        models: [],
        modelsInPlace: false,
      }),
    ],
    [
      'an absolute store name',
      (l) => ({ filesDir: l.filesDir, generationPath: '/gen/staging', target: l.target, stores: [item(l.outside)], models: [], modelsInPlace: false }),
    ],
    [
      'a generation folder with ..',
      (l) => ({ filesDir: l.filesDir, generationPath: '/gen/../../../..', target: l.target, stores: [item('precious.txt')], models: [], modelsInPlace: false }),
    ],
    [
      'a model path that climbs out',
      (l) => ({
        filesDir: l.filesDir,
        generationPath: '/gen/staging',
        target: l.target,
        stores: [item('sanad.db')],
        models: [model('/models/../../../../precious.txt')],
        modelsInPlace: false,
      }),
    ],
    [
      'a symlink restic restored',
      (l) => {
        symlinkSync(l.root, join(l.filesDir, 'escape'));
        return {
          filesDir: l.filesDir,
          generationPath: '/gen/staging',
          target: l.target,
          stores: [item('sanad.db')],
          models: [model('/escape/precious.txt')],
          modelsInPlace: false,
        };
      },
    ],
    [
      'a folder named as a model',
      (l) => ({
        filesDir: l.filesDir,
        generationPath: '/gen/staging',
        target: l.target,
        stores: [item('sanad.db')],
        models: [model('/models')],
        modelsInPlace: false,
      }),
    ],
  ];
  for (const [what, make] of cases) {
    const l = layout();
    await assert.rejects(
      placeFiles(make(l)),
      (err: unknown) => err instanceof ForgedPathError && /looks forged or damaged; restore another one\.$/.test(err.message),
      what,
    );
    assert.equal(readFileSync(l.outside, 'utf8'), 'not yours', `${what}: the outside file is untouched`);
    assert.ok(existsSync(join(l.filesDir, 'gen', 'staging', 'sanad.db')), `${what}: nothing moved`);
  }
});

test('a good manifest still places the store and the model', async () => {
  const l = layout();
  const placed = await placeFiles({
    filesDir: l.filesDir,
    generationPath: '/gen/staging',
    target: l.target,
    stores: [item('sanad.db')],
    models: [model('/models/tiny.gguf')],
    modelsInPlace: false,
  });
  assert.deepEqual(
    placed.stores.map((s) => s.path),
    [join(l.target, 'sanad.db')],
  );
  assert.deepEqual(
    placed.models.map((m) => m.path),
    [join(l.target, 'models', 'tiny.gguf')],
  );
  assert.equal(readFileSync(join(l.target, 'models', 'tiny.gguf'), 'utf8'), 'model');
});

test('the target is claimed in one step with its check: a folder or link that appears meanwhile is refused', async () => {
  const root = tempDir('sanad-claim-');
  // Checked absent, then someone puts a link to another folder in its place.
  const elsewhere = join(root, 'elsewhere');
  mkdirSync(elsewhere);
  const target = join(root, 'target');
  symlinkSync(elsewhere, target);
  await assert.rejects(prepareTarget(target, 'absent'), TargetChangedError);
  assert.deepEqual(readdirSync(elsewhere), [], 'nothing was written through the link');
  // Checked empty, then a file is put in before the claim.
  const empty = join(root, 'empty');
  mkdirSync(empty);
  writeFileSync(join(empty, 'theirs.txt'), 'x');
  await assert.rejects(prepareTarget(empty, 'empty'), TargetChangedError);
  assert.deepEqual(readdirSync(empty), ['theirs.txt'], 'the work folder was taken back');
  // The ordinary cases still claim.
  const fresh = await prepareTarget(join(root, 'a', 'b'), 'absent');
  assert.equal(fresh.createdTop, join(root, 'a'));
});
