// integrity_check in a worker (src/store/integrity.ts): a whole store answers its table count; a
// store with a damaged page (bytes overwritten in a real file) is never "whole", and says what the
// check found; a file that is not SQLite is not whole either. The restore's and the backup's copies
// are checked this way, off the main thread.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openSync, writeSync, closeSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { integrityCheck } from '../../src/store/integrity.js';
import { tempDir } from '../harness/data-dir.js';

function storeWithRows(path: string): void {
  const db = new Database(path);
  db.pragma('journal_mode = DELETE');
  db.exec('CREATE TABLE a(id INTEGER PRIMARY KEY, body TEXT); CREATE TABLE b(x); CREATE INDEX a_body ON a(body)');
  const ins = db.prepare('INSERT INTO a(body) VALUES (?)');
  db.transaction(() => {
    for (let i = 0; i < 2000; i++) ins.run(`row ${i} ${'x'.repeat(200)}`);
  })();
  db.close();
}

test('a whole store passes with its table count; a damaged page and a non-SQLite file do not', async () => {
  const dir = tempDir();
  const good = join(dir, 'good.db');
  storeWithRows(good);
  assert.deepEqual(await integrityCheck(good), { whole: true, tables: 2 });

  const damaged = join(dir, 'damaged.db');
  storeWithRows(damaged);
  // Page 20 of 4 KiB pages: inside the table's or the index's b-tree, past the schema on page 1.
  const fd = openSync(damaged, 'r+');
  writeSync(fd, Buffer.alloc(4096, 0xa5), 0, 4096, 19 * 4096);
  closeSync(fd);
  const verdict = await integrityCheck(damaged);
  assert.equal(verdict.whole, false);
  assert.ok(!verdict.whole && verdict.found.length > 0, 'it says what it found');

  const notSqlite = join(dir, 'not.db');
  const f = openSync(notSqlite, 'w');
  writeSync(f, Buffer.from('this is not a database, only text that is long enough to have a header '.repeat(100)));
  closeSync(f);
  assert.equal((await integrityCheck(notSqlite)).whole, false);
});
