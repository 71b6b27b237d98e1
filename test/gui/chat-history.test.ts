// Conversations made in the Chat screen are kept like everything else, with real restic, the real
// CLI and real Chromium: the next generation holds them (`sanad generations show` lists them); one
// deleted in the GUI stays deleted through a restore of that generation; the generation view brings
// it back whole (its items and every response); a conversation goes on after Sanad restarts, and
// on the restored data dir served again. Screenshot: generation-conversations-en.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { Page } from 'playwright-core';
import { field, str, type Api } from '../harness/api.js';
import { startTestAppliance, type TestAppliance } from '../harness/appliance.js';
import { addDemoModel, newAdminToken, prepareDataDir, tempDir } from '../harness/data-dir.js';
import { runSanad } from '../harness/run-sanad.js';
import { backupNow, restoreCli } from '../restore/kit.js';
import { openGui, SCREENSHOT_DIR, type Gui } from './browser.js';
import { turnsOver } from './chat-page.js';
import { storePath } from '../../src/files/data-dir-layout.js';

let app: TestAppliance | null = null;
let gui: Gui | null = null;
after(async () => {
  await gui?.close();
  await app?.close();
});

async function itemIds(api: Api, conv: string): Promise<string[]> {
  const res = await api.get(`/v1/conversations/${conv}/items?order=asc&limit=100`);
  assert.equal(res.status, 200, res.text);
  const data = field(res.body, 'data');
  assert.ok(Array.isArray(data));
  return data.map((i: unknown) => str(i, 'id'));
}

/** A new conversation in the GUI: two turns with the demo model; its id. */
async function talk(page: Page, first: string, second: string): Promise<string> {
  await page.getByTestId('chat-new').click();
  await page.getByTestId('chat-model').selectOption('demo');
  await page.getByTestId('chat-input').fill(first);
  await page.getByTestId('chat-input').press('Enter');
  await page.waitForURL((u) => /^#\/chat\/conv_/.test(u.hash));
  await turnsOver(page, 2, 30_000, 'the first turn').catch(async (e: unknown) => {
    await page.screenshot({ path: join(SCREENSHOT_DIR, 'chat-history-first-turn-failed.png') });
    console.error(`the page at ${page.url()} showed:\n${await page.locator('main').innerText()}`);
    throw e;
  });
  await page.getByTestId('chat-input').fill(second);
  await page.getByTestId('chat-input').press('Enter');
  await turnsOver(page, 4, 30_000, 'the second turn').catch(async (e: unknown) => {
    await page.screenshot({ path: join(SCREENSHOT_DIR, 'chat-history-second-turn-failed.png') });
    console.error(`the page at ${page.url()} showed:\n${await page.locator('main').innerText()}`);
    throw e;
  });
  return decodeURIComponent(new URL(page.url()).hash.replace('#/chat/', ''));
}

function conversationsIn(dataDir: string): string[] {
  const db = new Database(storePath(dataDir), { readonly: true, fileMustExist: true });
  try {
    return db
      .prepare<[], { id: string }>('SELECT id FROM conversations ORDER BY id')
      .all()
      .map((r) => r.id);
  } finally {
    db.close();
  }
}

test('chat conversations: in the next generation, deleted for good through a restore, brought back whole, going on after a restart and a restore', async () => {
  const prepared = await prepareDataDir();
  await addDemoModel(prepared.dataDir, 'demo');
  const { dataDir, adminToken } = prepared;
  app = await startTestAppliance({ dataDir, adminToken });
  gui = await openGui(app.appliance.loginUrl());
  const { page } = gui;
  await page.getByTestId('nav-chat').click();
  const doomed = await talk(page, 'Remember the blue lighthouse', 'And the red door');
  const kept = await talk(page, 'A conversation to keep', 'Still here?');
  const doomedItems = await itemIds(app.api, doomed);
  const doomedResponses = (await app.api.get('/v1/tasks?limit=20')).body;
  const generation = await backupNow(dataDir);

  // The CLI lists both conversations of that generation, with their titles.
  const shown = await runSanad(['generations', 'show', String(generation), '--data-dir', dataDir]);
  assert.equal(shown.code, 0, shown.stderr);
  assert.match(shown.stdout, new RegExp(`${doomed}  "Remember the blue lighthouse"  4 item\\(s\\), 2 response\\(s\\)`));
  assert.match(shown.stdout, new RegExp(`${kept}  "A conversation to keep"  4 item\\(s\\)`));
  const searched = await runSanad(['generations', 'show', String(generation), '--data-dir', dataDir, '--search', 'lighthouse', '--json']);
  const found = field(JSON.parse(searched.stdout), 'conversations', 'data');
  assert.ok(Array.isArray(found));
  assert.deepEqual(
    found.map((c: unknown) => str(c, 'id')),
    [doomed],
    'the search finds it by words said in it',
  );

  // Deleted in the GUI (after the question), then that generation restored: it stays deleted.
  await page.goto(`${app.appliance.url}/#/chat/${doomed}`);
  await turnsOver(page, 4, 15_000, 'the conversation to delete');
  await page.getByTestId('chat-delete').click();
  await page.getByTestId('chat-delete-confirm').click();
  await page.waitForURL((u) => u.hash === '#/chat');
  assert.equal((await app.api.get(`/v1/conversations/${doomed}`)).status, 404);
  const here = join(tempDir('sanad-restore-'), 'here');
  const restored = await restoreCli(dataDir, ['--target', here, '--generation', String(generation), '--keep-clients']);
  assert.ok(restored.ok, JSON.stringify(restored.checks));
  assert.deepEqual(conversationsIn(here), [kept], 'the deleted conversation is not in the restored data');

  // The generation view lists it as deleted since; Bring it back (asked first): back whole.
  await page.getByTestId('nav-backups').click();
  await page.getByTestId(`inside-local-${generation}`).click();
  const entry = page.locator(`[data-conversation="${doomed}"]`);
  await entry.waitFor({ timeout: 60_000 });
  assert.equal(await entry.getAttribute('data-live'), 'deleted');
  assert.equal(await page.locator(`[data-conversation="${kept}"]`).getAttribute('data-live'), 'present');
  await gui.screenshot('generation-conversations-en');
  await page.getByTestId(`undelete-${doomed}`).click();
  await page.getByRole('button', { name: 'Bring it back' }).click();
  await entry.getByTestId('bring-back-result').waitFor();
  assert.equal(await entry.getByTestId('bring-back-result').textContent(), 'Brought back.');
  assert.deepEqual(await itemIds(app.api, doomed), doomedItems, 'every item, in order, with its id');
  const tasks = field(doomedResponses, 'data');
  assert.ok(Array.isArray(tasks));
  for (const task of tasks) assert.equal((await app.api.get(`/v1/responses/${str(task, 'response_id')}`)).status, 200, 'its responses came back with it');
  const meta = field((await app.api.get(`/v1/conversations/${doomed}`)).body, 'metadata');
  assert.deepEqual([field(meta, 'title'), field(meta, 'model')], ['Remember the blue lighthouse', 'demo'], 'with its settings');

  // Sanad restarts; the conversation goes on from the store.
  await gui.close();
  await app.close();
  app = await startTestAppliance({ dataDir, adminToken });
  gui = await openGui(app.appliance.loginUrl());
  await gui.page.goto(`${app.appliance.url}/#/chat/${doomed}`);
  await turnsOver(gui?.page ?? page, 4, 15_000, 'the conversation after a restart');
  await gui.page.getByTestId('chat-input').fill('Do you still remember?');
  await gui.page.getByTestId('chat-input').press('Enter');
  await turnsOver(gui?.page ?? page, 6, 30_000, 'a turn after the restart');
  assert.equal((await itemIds(app.api, doomed)).length, 6);
  await gui.close();
  await app.close();

  // The restored data dir served: its conversation goes on there too.
  app = await startTestAppliance({ dataDir: here, adminToken: newAdminToken(here) });
  gui = await openGui(app.appliance.loginUrl());
  await gui.page.goto(`${app.appliance.url}/#/chat/${kept}`);
  await turnsOver(gui?.page ?? page, 4, 15_000, 'the kept conversation in the restored data');
  await gui.page.getByTestId('chat-input').fill('Hello from the restored data');
  await gui.page.getByTestId('chat-input').press('Enter');
  await turnsOver(gui?.page ?? page, 6, 30_000, 'a turn in the restored data');
});
