// The data dir is made 0700 with its parents, or refused in one sentence that says what to do:
// a file in its place, a place nothing can be made (a pseudo-filesystem).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { assertDataDirUsable, DataDirError, makeDataDir } from '../../src/appliance/data-dir.js';
import { tempDir } from '../harness/data-dir.js';

test('makeDataDir: parents too, each 0700; an existing folder is fine', () => {
  const root = tempDir('sanad-dd-');
  const dir = join(root, 'a', 'b');
  makeDataDir(dir);
  makeDataDir(dir);
  assert.equal(statSync(dir).mode & 0o777, 0o700);
  assert.equal(statSync(join(root, 'a')).mode & 0o777, 0o700);
});

test('a file where the data dir should be, or under it, or a place nothing can be made: one clear sentence', () => {
  const file = join(tempDir('sanad-dd-'), 'f');
  writeFileSync(file, 'x');
  const refused = (fn: () => void, pattern: RegExp): void =>
    assert.throws(fn, (err: unknown) => err instanceof DataDirError && pattern.test(err.message) && /--data-dir or SANAD_DATA_DIR/.test(err.message));
  refused(() => assertDataDirUsable(file), /is a file, not a folder/);
  refused(() => makeDataDir(file), /is a file, not a folder/);
  refused(() => makeDataDir(join(file, 'below')), /is inside a file, not a folder/);
  // Node's own recursive mkdirSync never returns here; this answers at once.
  refused(() => makeDataDir('/proc/sanad-nowhere/data'), /cannot create the data dir/);
});
