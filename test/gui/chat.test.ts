// The Chat screen in real Chromium against a real `sanad serve` with real (tiny, generated) models:
// two turns of one conversation, the second continuing the first on the wire; a reload keeps it;
// an Arabic message in the English GUI and an English one in the Arabic GUI each read in their own
// direction; Stop cancels the reply's task and the stopped turn is not kept; a model still loading
// (it waits for another model's generation to drain) says so, then answers, cut off at its limit,
// and Retry replaces the cut-off turn; rename, search, continue from a message, and delete after the
// question. Outcomes are checked through the API; axe-core finds no WCAG 2 A/AA violation in either
// language; screenshots in English and Arabic.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import type { Page, Request } from 'playwright-core';
import { systemClock } from '../../src/clock.js';
import { ModelRegistry } from '../../src/engine/registry.js';
import { openStore } from '../../src/store/open.js';
import { field, num, str, waitFor, type Api } from '../harness/api.js';
import { addDemoModel, prepareDataDir } from '../harness/data-dir.js';
import { startServiceProcess, type ServiceProcess } from '../harness/service-process.js';
import { tinyModelPath } from '../fixtures/tiny-model.js';
import { axeViolations } from './axe.js';
import { openGui, type Gui } from './browser.js';
import { send, storedMessages, turnsOver } from './chat-page.js';
import { storePath } from '../../src/files/data-dir-layout.js';

let service: ServiceProcess | null = null;
let gui: Gui | null = null;
after(async () => {
  await gui?.close();
  await service?.kill();
});

interface Item {
  id: string;
  role?: string;
  status?: string;
  content?: Array<{ text?: string }>;
}

async function items(api: Api, conv: string): Promise<Item[]> {
  const res = await api.get(`/v1/conversations/${conv}/items?order=asc&limit=100`);
  assert.equal(res.status, 200, res.text);
  const data = field(res.body, 'data');
  assert.ok(Array.isArray(data));
  return data.filter((d): d is Item => typeof d === 'object' && d !== null && 'id' in d);
}

const convOf = (page: Page): string => decodeURIComponent(new URL(page.url()).hash.replace('#/chat/', ''));

/** The computed direction of the stored message whose text is `text`. */
async function directionOf(page: Page, text: string): Promise<string> {
  const id = await page.locator('[data-testid=chat-message]:not([data-pending])', { hasText: text }).first().getAttribute('data-id');
  assert.ok(id !== null, `a stored message says ${text}`);
  // A string, so it runs as the page's own script (the test is compiled without the DOM's types).
  const dir: unknown = await page.evaluate(`getComputedStyle(document.querySelector('[data-id="${id}"] [data-testid=chat-message-text] p')).direction`);
  return String(dir);
}

test('chat: turns continue a conversation, survive a reload, stop, wait for a loading model, retry, rename, delete; both directions; axe clean', async (t) => {
  // Two generations at once, and memory for one model only: a turn for a second model waits in
  // `loading` while the first model drains.
  const prepared = await prepareDataDir({ max_concurrent_generations: 2, model_memory_budget_mb: 16 });
  await addDemoModel(prepared.dataDir, 'demo');
  const db = openStore(storePath(prepared.dataDir));
  await new ModelRegistry(db, systemClock).add(await tinyModelPath(2), 'tiny-b');
  db.close();
  service = await startServiceProcess(prepared.dataDir, prepared.adminToken);
  gui = await openGui(service.loginUrl);
  const { page } = gui;
  const api = service.api;
  const creates: unknown[] = [];
  page.on('request', (r: Request) => {
    if (r.method() === 'POST' && new URL(r.url()).pathname === '/v1/responses') creates.push(r.postDataJSON());
  });

  await page.getByTestId('nav-chat').click();
  await page.getByTestId('chat-model').selectOption('demo');
  await send(page, 'Hello, who are you?');
  await page.waitForURL((u) => /^#\/chat\/conv_/.test(u.hash));
  const conv = convOf(page);
  await turnsOver(page, 2, 30_000, 'the first turn stored and shown');
  await send(page, 'And then?');
  await turnsOver(page, 4, 30_000, 'the second turn stored and shown');
  // Each reply this page watched says how long its first words took.
  const figures = await page.getByTestId('chat-reply-figures').allTextContents();
  assert.equal(figures.length, 2, JSON.stringify(figures));
  for (const f of figures) assert.match(f, /^first words after \d+(\.\d)? s/);

  // On the wire: each turn names the conversation and sends only its new message.
  assert.equal(creates.length, 2);
  for (const [i, text] of ['Hello, who are you?', 'And then?'].entries()) {
    assert.equal(field(creates[i], 'conversation'), conv);
    assert.deepEqual(field(creates[i], 'input'), [{ type: 'message', role: 'user', content: text }]);
    assert.equal(field(creates[i], 'background'), true);
  }
  const stored = await items(api, conv);
  assert.deepEqual(
    stored.map((i) => i.role),
    ['user', 'assistant', 'user', 'assistant'],
  );
  assert.equal(stored[1]?.content?.[0]?.text, 'OK,demo!');
  // The second turn was given the first: its prompt is longer than the first one's.
  const usage = async (n: number): Promise<number> => {
    const list = await api.get(`/v1/tasks?limit=10`);
    const data = field(list.body, 'data');
    assert.ok(Array.isArray(data));
    const ids = data.map((d) => str(d, 'response_id')).reverse();
    return num((await api.get(`/v1/responses/${ids[n] ?? ''}`)).body, 'usage', 'input_tokens');
  };
  const [first, second] = [await usage(0), await usage(1)];
  t.diagnostic(`prompt tokens: first turn ${first}, second turn ${second}`);
  assert.ok(second > first + 4, `the second turn carried the first (${first} → ${second} input tokens)`);
  const meta = field((await api.get(`/v1/conversations/${conv}`)).body, 'metadata');
  assert.equal(field(meta, 'title'), 'Hello, who are you?');
  assert.equal(field(meta, 'model'), 'demo');

  // A reload: the conversation is still there, from the store.
  await page.reload();
  await turnsOver(page, 4, 15_000, 'the conversation after a reload');
  assert.equal(await page.getByTestId('chat-title').textContent(), 'Hello, who are you?');

  // An Arabic message inside the English GUI reads right to left; the English ones left to right.
  await send(page, 'مرحبا، كيف حالك اليوم؟');
  await turnsOver(page, 6, 30_000, 'the Arabic turn');
  assert.equal(await page.evaluate('document.documentElement.dir'), 'ltr');
  assert.equal(await directionOf(page, 'مرحبا، كيف حالك اليوم؟'), 'rtl');
  assert.equal(await directionOf(page, 'And then?'), 'ltr');
  await gui.screenshot('chat-en');
  const enViolations = await axeViolations(page, 'main');
  assert.deepEqual(enViolations, [], JSON.stringify(enViolations, null, 2));

  // Stop mid-stream: the endless model, a long limit; Stop cancels the task; the turn is not kept.
  await page.getByTestId('chat-model').selectOption('tiny');
  await page.locator('[data-testid=chat-settings] summary').click();
  await page.getByTestId('chat-max-tokens').fill('1900');
  await page.getByTestId('chat-max-tokens').blur();
  await page.getByTestId('chat-settings-state').filter({ hasText: 'Saved' }).waitFor();
  await send(page, 'Tell me a long story');
  await waitFor(async () => ((await page.getByTestId('chat-pending-text').textContent()) ?? '').length > 20, 30_000, 'the reply streaming in');
  await page.getByTestId('chat-stop').click();
  await page.locator('[data-testid=chat-pending][data-status=cancelled]').waitFor({ timeout: 30_000 });
  assert.match((await page.getByTestId('chat-turn-ended').textContent()) ?? '', /Stopped/);
  const stoppedTask = str(await waitFor(async () => (await api.get('/v1/tasks?limit=1')).body), 'data', 0, 'id');
  assert.equal(str((await api.get(`/v1/tasks/${stoppedTask}`)).body, 'status'), 'cancelled');
  assert.equal((await items(api, conv)).length, 6, 'a stopped turn is not kept in the conversation');
  await page.getByRole('button', { name: 'Dismiss' }).click();

  // A model still loading: model "tiny" is busy with another client's long generation, so the turn
  // for "tiny-b" waits in `loading` until it drains; the page says so. Then it answers to its limit.
  // The blocker is long (about 30 s here) and is cancelled below: a short one could end before the
  // chat turn is sent on a fast machine, and the page would never show `loading` (a CI failure).
  const blocker = await api.post('/v1/responses', { model: 'tiny', input: 'keep busy', max_output_tokens: 8000, background: true });
  assert.equal(blocker.status, 202, blocker.text);
  await waitFor(
    async () => str((await api.get(`/v1/tasks/${str(blocker.body, 'task_id')}`)).body, 'status') === 'running',
    15_000,
    'the other generation running',
  );
  await page.getByTestId('chat-model').selectOption('tiny-b');
  await page.getByTestId('chat-max-tokens').fill('40');
  await page.getByTestId('chat-max-tokens').blur();
  await send(page, 'Are you there?');
  await page.locator('[data-testid=chat-pending][data-status=loading]').waitFor({ timeout: 15_000 });
  assert.match((await page.getByTestId('chat-turn-state').textContent()) ?? '', /Loading model tiny-b/);
  await gui.screenshot('chat-loading-en');
  await api.post(`/v1/responses/${str(blocker.body, 'id')}/cancel`);
  await page.getByTestId('chat-cut-off').waitFor({ timeout: 60_000 });
  const cut = await items(api, conv);
  assert.equal(cut.length, 8);
  assert.equal(cut[7]?.status, 'incomplete');
  // Retry puts a new turn in place of the cut-off one (its two items are deleted first).
  await page.getByTestId('chat-retry-cut-off').click();
  await waitFor(
    async () => {
      const now = await items(api, conv);
      return now.length === 8 && now[6]?.id !== cut[6]?.id && now[7]?.id !== cut[7]?.id;
    },
    60_000,
    'the retried turn in place of the cut-off one',
  );
  await page.getByTestId('chat-cut-off').waitFor();

  // Rename, then find it by its new title; "continue in a new conversation from here".
  await page.getByTestId('chat-rename').click();
  await page.getByTestId('chat-title-input').fill('Getting to know the model');
  await page.getByTestId('chat-title-input').press('Enter');
  await waitFor(
    async () => field(field((await api.get(`/v1/conversations/${conv}`)).body, 'metadata'), 'title') === 'Getting to know the model',
    10_000,
    'the new title stored',
  );
  await page.getByTestId('chat-search').fill('know the');
  await waitFor(async () => (await page.getByTestId('chat-list-item').count()) === 1, 10_000, 'the search to find it');
  await page.getByTestId('chat-search').fill('OK,demo');
  await waitFor(async () => (await page.getByTestId('chat-list-item').count()) === 1, 10_000, 'words said in it find it too');
  await page.getByTestId('chat-search').fill('');
  await storedMessages(page).nth(1).getByTestId('chat-continue-here').click();
  await page.waitForURL((u) => /^#\/chat\/conv_/.test(u.hash) && !u.hash.includes(conv));
  const fork = convOf(page);
  assert.deepEqual(
    (await items(api, fork)).map((i) => [i.role, i.content?.[0]?.text]),
    [
      ['user', 'Hello, who are you?'],
      ['assistant', 'OK,demo!'],
    ],
  );
  assert.equal(field(field((await api.get(`/v1/conversations/${fork}`)).body, 'metadata'), 'title'), 'Getting to know the model (continued)');

  // The Arabic GUI: the English message reads left to right inside it.
  await page.goto(`${service.url}/#/chat/${conv}`);
  await page.getByTestId('language-switch').click();
  await turnsOver(page, 8, 15_000, 'the conversation in Arabic');
  assert.equal(await page.evaluate('document.documentElement.dir'), 'rtl');
  assert.equal(await directionOf(page, 'And then?'), 'ltr');
  assert.equal(await directionOf(page, 'مرحبا، كيف حالك اليوم؟'), 'rtl');
  await gui.screenshot('chat-ar');
  const arViolations = await axeViolations(page, 'main');
  assert.deepEqual(arViolations, [], JSON.stringify(arViolations, null, 2));
  await page.getByTestId('language-switch').click();

  // Delete, after the question: gone from the API, and the list.
  await page.getByTestId('chat-delete').click();
  assert.match((await page.getByRole('alertdialog').textContent()) ?? '', /Delete “Getting to know the model”/);
  await page.getByTestId('chat-delete-confirm').click();
  await page.waitForURL((u) => u.hash === '#/chat');
  assert.equal((await api.get(`/v1/conversations/${conv}`)).status, 404);
  await waitFor(async () => (await page.locator(`[data-testid=chat-list-item][data-id="${conv}"]`).count()) === 0, 10_000, 'the list without it');
});
