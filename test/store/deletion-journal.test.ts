// The deletion journal: append-only, fsynced, a torn last line skipped and never glued to the next
// one, rewrites whole or not at all, and the union of journals keeps one entry per id.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, existsSync, readFileSync, statSync } from 'node:fs';
import { DeletionJournal, parseJournal, unionOf } from '../../src/store/deletion-journal.js';
import { tempDir } from '../harness/data-dir.js';
import { journalPath } from '../../src/files/data-dir-layout.js';

test('the journal appends lines 0600, skips a torn line, and the next append starts on a fresh line', () => {
  const dir = tempDir('sanad-journal-');
  const j = DeletionJournal.of(dir);
  assert.deepEqual(j.read(), [], 'no file: nothing deleted');
  j.record([{ kind: 'response', id: 'resp_a', at: 10, why: 'deleted' }]);
  assert.equal(statSync(journalPath(dir)).mode & 0o777, 0o600);
  // A crash in the middle of a write leaves half a line.
  appendFileSync(journalPath(dir), '{"kind":"response","id":"resp_to');
  j.record([
    { kind: 'response', id: 'resp_b', at: 11, why: 'retention' },
    { kind: 'response', id: 'resp_c', at: 11, why: 'retention' },
  ]);
  assert.deepEqual(
    j.read().map((d) => d.id),
    ['resp_a', 'resp_b', 'resp_c'],
  );
  assert.equal(readFileSync(journalPath(dir), 'utf8').split('\n').length, 5, 'the torn line stays on its own line');
  // Content never goes in: only the four fields survive a parse.
  assert.deepEqual(parseJournal('{"kind":"response","id":"x","at":1,"why":"deleted","text":"secret"}\nnot json\n{"kind":"task"}'), [
    { kind: 'response', id: 'x', at: 1, why: 'deleted' },
  ]);
});

test('a rewrite keeps what it is told to, through a temporary file; the union has one entry per id, the earliest', () => {
  const dir = tempDir('sanad-journal-');
  const j = DeletionJournal.of(dir);
  j.record([1, 2, 3, 4].map((n) => ({ kind: 'response' as const, id: `resp_${n}`, at: n * 100, why: 'deleted' as const })));
  assert.equal(
    j.rewrite((d) => d.at >= 300),
    2,
  );
  assert.deepEqual(
    j.read().map((d) => d.id),
    ['resp_3', 'resp_4'],
  );
  assert.equal(existsSync(`${journalPath(dir)}.tmp`), false);
  assert.equal(
    j.rewrite(() => true),
    0,
    'nothing to drop: the file is not rewritten',
  );
  const u = unionOf(
    [{ kind: 'response', id: 'r', at: 5, why: 'retention' }],
    [
      { kind: 'response', id: 'r', at: 3, why: 'deleted' },
      { kind: 'response', id: 's', at: 1, why: 'deleted' },
    ],
  );
  assert.deepEqual(
    u.map((d) => [d.id, d.at]),
    [
      ['s', 1],
      ['r', 3],
    ],
  );
});
