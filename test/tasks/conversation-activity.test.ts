// Migration 0016 and the conversation list built on it: an older store's conversations take their
// last item's time as updated_at; the list puts the one changed last first, pages by that order
// without losing or repeating one, and finds a conversation by its title or by words said in it
// (not by the JSON around them), with % and _ matching themselves.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import type { StoredItem } from '../../src/contract/responses.js';
import { MIGRATIONS } from '../../src/store/migrations/index.js';
import { openStore } from '../../src/store/open.js';
import { addItems, createConversation, listConversations } from '../../src/tasks/conversations.js';
import { tempDir } from '../harness/data-dir.js';

const message = (id: string, text: string): StoredItem => ({ type: 'message', id, status: 'completed', role: 'user', content: [{ type: 'input_text', text }] });

test("migration 0016: an older store's conversations take updated_at from their newest item", () => {
  const path = join(tempDir(), 'sanad.db');
  const old = openStore(path, { migrations: MIGRATIONS.slice(0, 15) });
  old.prepare("INSERT INTO conversations (id, client_id, metadata, created_at) VALUES ('conv_a', NULL, NULL, 100), ('conv_b', NULL, NULL, 200)").run();
  old
    .prepare(
      "INSERT INTO conversation_items (conversation_id, position, id, data, response_id, created_at) VALUES ('conv_a', 1, 'msg_1', '{}', NULL, 150), ('conv_a', 2, 'msg_2', '{}', NULL, 300)",
    )
    .run();
  old.close();
  const db = openStore(path);
  try {
    const rows = db.prepare<[], { id: string; updated_at: number }>('SELECT id, updated_at FROM conversations ORDER BY id').all();
    assert.deepEqual(
      rows.map((r) => [r.id, r.updated_at]),
      [
        ['conv_a', 300],
        ['conv_b', 200],
      ],
    );
  } finally {
    db.close();
  }
});

test('the list: changed last first, paged in that order, searched by title and words said', () => {
  const db = openStore(join(tempDir(), 'sanad.db'));
  try {
    const made = [1, 2, 3, 4, 5].map((n) => createConversation(db, { clientId: null, metadata: { title: `Trip ${n}` }, items: [] }, 1000 + n));
    addItems(db, made[0]?.id ?? '', [message('msg_old', 'the 100% blue_lighthouse, and a type word')], 2000);
    const ids = (after?: string, q?: string) => {
      const page = listConversations(db, { clientId: null, limit: 2, ...(after ? { after } : {}), ...(q ? { q } : {}) });
      assert.ok(!('unknownCursor' in page));
      return { ids: page.data.map((c) => c.id), more: page.has_more };
    };
    const first = ids();
    assert.deepEqual(first.ids, [made[0]?.id, made[4]?.id], 'the one with a new message first, then the newest');
    const second = ids(first.ids[1]);
    const third = ids(second.ids[1]);
    assert.deepEqual(
      [...first.ids, ...second.ids, ...third.ids],
      [made[0], made[4], made[3], made[2], made[1]].map((c) => c?.id),
    );
    assert.equal(third.more, false);
    assert.deepEqual(ids(undefined, 'trip 3').ids, [made[2]?.id], 'by title, in any case');
    assert.deepEqual(ids(undefined, 'blue_light').ids, [made[0]?.id], 'by words said');
    assert.deepEqual(ids(undefined, '100%').ids, [made[0]?.id], '% matches itself');
    assert.deepEqual(ids(undefined, '1_0').ids, [], '_ matches itself, not any character');
    assert.deepEqual(ids(undefined, 'input_text').ids, [], 'the JSON around the words is not searched');
    assert.ok('unknownCursor' in listConversations(db, { clientId: null, limit: 2, after: 'conv_nope' }));
  } finally {
    db.close();
  }
});

test('migration 0026: the search index is filled from an older store, kept by every write, and forgets what is deleted', () => {
  const path = join(tempDir(), 'sanad.db');
  const old = openStore(path, { migrations: MIGRATIONS.slice(0, 25) });
  old.prepare("INSERT INTO conversations (id, client_id, metadata, created_at, updated_at) VALUES ('conv_old', NULL, NULL, 100, 100)").run();
  old
    .prepare(
      'INSERT INTO conversation_items (conversation_id, position, id, data, response_id, created_at) VALUES (?, 1, ?, ?, NULL, 100), (?, 2, ?, ?, NULL, 100)',
    )
    .run(
      'conv_old',
      'msg_a',
      JSON.stringify(message('msg_a', 'An Ancient Lighthouse')),
      'conv_old',
      'msg_s',
      JSON.stringify({ type: 'message', id: 'msg_s', role: 'user', content: 'a plain string' }),
    );
  old.close();
  const db = openStore(path);
  try {
    const found = (q: string): string[] => {
      const page = listConversations(db, { clientId: null, limit: 10, q });
      assert.ok(!('unknownCursor' in page));
      return page.data.map((c) => c.id);
    };
    assert.deepEqual(found('ancient light'), ['conv_old'], 'backfilled, found in any case');
    assert.deepEqual(found('plain str'), ['conv_old'], 'content given as a string');
    const fresh = createConversation(db, { clientId: null, metadata: null, items: [message('msg_b', 'منارة قديمة على البحر')] }, 200);
    assert.deepEqual(found('قديمة'), [fresh.id], 'Arabic words');
    assert.deepEqual(found('بح'), [fresh.id], 'two letters: found without the index');
    addItems(db, fresh.id, [message('msg_c', 'Zebra crossing')], 300);
    assert.deepEqual(found('zebra'), [fresh.id], 'an added item');

    // Deleting an item, then a whole conversation (its items go by cascade): their words leave the index.
    db.prepare("DELETE FROM conversation_items WHERE conversation_id = ? AND id = 'msg_c'").run(fresh.id);
    assert.deepEqual(found('zebra'), []);
    db.prepare("DELETE FROM conversations WHERE id = 'conv_old'").run();
    assert.deepEqual(found('lighthouse'), []);
    const left = db.prepare<[], { n: number }>('SELECT count(*) AS n FROM conversation_search').get()?.n;
    assert.equal(left, 1, 'only the Arabic message is still indexed');
    assert.equal(db.prepare<[], { n: number }>('SELECT count(*) AS n FROM conversation_search_rows').get()?.n, 1);
    // secure-delete: no shadow table of the index holds the deleted text any more.
    const shadows = db.prepare<[], { name: string }>("SELECT name FROM sqlite_schema WHERE type = 'table' AND name LIKE 'conversation_search_%'").all();
    for (const { name } of shadows) {
      const rows = db.prepare(`SELECT * FROM "${name}"`).raw().all();
      const text = JSON.stringify(rows, (_k, v: unknown) => (Buffer.isBuffer(v) ? v.toString('latin1') : v));
      assert.ok(!/Zebra|Lighthouse|plain string/i.test(text), `${name} forgot the deleted words`);
    }
  } finally {
    db.close();
  }
});
