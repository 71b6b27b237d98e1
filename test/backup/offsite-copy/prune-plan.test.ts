// The prune decision on its own: nothing is deleted unless the listing shows the new copy with
// the uploaded size; copies rank by the epoch in their name; the new copy is never doomed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { planPrune } from '../../../src/backup/offsite-copy/index.js';
import { joinRemote, type RcloneEntry } from '../../../src/repository/rclone.js';

const file = (Name: string, Size = 10): RcloneEntry => ({ Path: Name, Name, Size, IsDir: false });
const copies = (...epochs: number[]) => epochs.map((e) => file(`sanad-${e}.tar.gz.age`));
const uploaded = { name: 'sanad-50.tar.gz.age', size: 10 };

test('oldest beyond keep, oldest first; other names, folders and sub-paths are ignored', () => {
  const listing = [...copies(9, 50, 40, 30, 8), file('notes.txt'), { ...file('sanad-1.tar.gz.age'), IsDir: true }, file('sanad-2.tar.gz.age.partial')];
  assert.deepEqual(planPrune(listing, uploaded, 2), { doomed: ['sanad-8.tar.gz.age', 'sanad-9.tar.gz.age', 'sanad-30.tar.gz.age'], refused: null });
  assert.deepEqual(planPrune(listing, uploaded, 0), { doomed: [], refused: null });
  assert.deepEqual(planPrune(listing, uploaded, 99), { doomed: [], refused: null });
});

test('a listing without the new copy, or with another size, deletes nothing', () => {
  assert.match(planPrune(copies(1, 2, 3), uploaded, 1).refused ?? '', /does not show sanad-50/);
  assert.deepEqual(planPrune([], uploaded, 1).doomed, []);
  const shortCopy = [...copies(1, 2), file('sanad-50.tar.gz.age', 9)];
  assert.match(planPrune(shortCopy, uploaded, 1).refused ?? '', /9 bytes, but 10 were uploaded/);
  assert.deepEqual(planPrune(shortCopy, uploaded, 1).doomed, []);
});

test('the copy just uploaded is kept even when a later epoch exists', () => {
  assert.deepEqual(planPrune(copies(60, 70, 50, 10), uploaded, 1).doomed, ['sanad-10.tar.gz.age', 'sanad-60.tar.gz.age']);
});

test('joinRemote keeps the folder exactly', () => {
  assert.equal(joinRemote('dav:نسخ سند/offsite copies/', 'sanad-1.tar.gz.age'), 'dav:نسخ سند/offsite copies/sanad-1.tar.gz.age');
  assert.equal(joinRemote('dav:', 'x'), 'dav:x');
  assert.equal(joinRemote('dest:/', 'x'), 'dest:/x');
  assert.throws(() => joinRemote(':s3:b', 'x'), /inline backends/);
});
