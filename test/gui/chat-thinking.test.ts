// A reasoning model in the Chat screen, in real Chromium against a real `sanad serve` with generated
// thinking models: while the model thinks the reply says "Thinking…" with the thought growing inside
// a closed block; the stored reply shows the thought folded under the time it took, openable, apart
// from the answer; the conversation's Thinking effort is kept with it and sent (None: no thought);
// the Tasks page shows the thought apart from the text. English and Arabic, 1280 and 390 px,
// screenshots looked at; axe-core finds no WCAG 2 A/AA violation.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import type { Request } from 'playwright-core';
import { THINKING_MODEL_THOUGHT } from '../../src/demo/thinking-model.js';
import { TINY_MODEL_ANSWER } from '../../src/demo/tiny-model.js';
import { field, str, waitFor, type Api } from '../harness/api.js';
import { addModelFile, prepareDataDir } from '../harness/data-dir.js';
import { startServiceProcess, type ServiceProcess } from '../harness/service-process.js';
import { endlessThinkerPath, thinkingModelPath } from '../fixtures/tiny-model.js';
import { axeViolations } from './axe.js';
import { openGui, type Gui } from './browser.js';
import { send, turnsOver } from './chat-page.js';

/** The `data` list of a list answer. */
async function listed(api: Api, path: string): Promise<unknown[]> {
  const data = field((await api.get(path)).body, 'data');
  assert.ok(Array.isArray(data), path);
  return data.map((item: unknown) => item);
}

let service: ServiceProcess | null = null;
let gui: Gui | null = null;
after(async () => {
  await gui?.close();
  await service?.kill();
});

test('chat with a thinking model: Thinking…, then the thought folded with its time; the effort kept and sent; Tasks shows it apart', async () => {
  const prepared = await prepareDataDir();
  await addModelFile(prepared.dataDir, 'thinker', await thinkingModelPath());
  await addModelFile(prepared.dataDir, 'ponderer', await endlessThinkerPath());
  service = await startServiceProcess(prepared.dataDir, prepared.adminToken);
  gui = await openGui(service.loginUrl);
  const { page } = gui;
  const api = service.api;
  const creates: unknown[] = [];
  page.on('request', (r: Request) => {
    if (r.method() === 'POST' && new URL(r.url()).pathname === '/v1/responses') creates.push(r.postDataJSON());
  });

  // A model that thinks for long: the reply says "Thinking…" and the thought grows in a closed block.
  await page.getByTestId('nav-chat').click();
  await page.getByTestId('chat-model').selectOption('ponderer');
  // Long enough to still be thinking when Stop is pressed (about 30 s): the default 1,024 tokens
  // take the tiny model a second or two, and on a fast machine the turn ended before Stop (CI).
  const settings = page.getByTestId('chat-settings');
  // The panel is closed when the page (or the conversation, once made) is drawn again.
  const openSettings = async (): Promise<void> => {
    if ((await settings.getAttribute('open')) === null) await settings.locator('summary').click();
  };
  await openSettings();
  await page.getByTestId('chat-max-tokens').fill('8000');
  await page.getByTestId('chat-max-tokens').blur();
  await send(page, 'Think it over');
  const live = page.getByTestId('chat-pending').getByTestId('chat-thought');
  await live.waitFor({ timeout: 30_000 });
  assert.equal(await live.getAttribute('data-thinking'), 'true');
  assert.equal(await live.getAttribute('open'), null, 'the thought is closed while the model thinks');
  assert.equal((await live.getByTestId('chat-thought-label').textContent())?.trim(), 'Thinking…');
  await live.locator('summary').click();
  await waitFor(async () => ((await live.getByTestId('chat-thought-text').textContent()) ?? '').length > 20, 20_000, 'the thought to grow');
  await gui.screenshot('chat-thinking-en');
  await page.getByTestId('chat-stop').click();
  await page.getByTestId('chat-turn-ended').waitFor({ timeout: 20_000 });
  await page.getByRole('button', { name: 'Dismiss' }).click();

  // The model that thinks and answers: stored, the thought comes first, folded, with its time.
  // (Its context holds 2,048 tokens: the limit set for the long thinker would be refused.)
  // The first settings save is slow to answer (as on a busy machine): the model chosen meanwhile
  // must not be written back over by it, nor the limit lost.
  let slowed = false;
  await page.route(/\/v1\/conversations\/[^/]+$/, async (route) => {
    if (route.request().method() === 'POST' && !slowed) {
      slowed = true;
      await new Promise((r) => setTimeout(r, 1_000));
    }
    await route.continue();
  });
  await openSettings();
  await page.getByTestId('chat-max-tokens').fill('64');
  await page.getByTestId('chat-max-tokens').blur();
  await page.getByTestId('chat-model').selectOption('thinker');
  await send(page, 'Hello');
  // Both changes, made a moment apart and saved while the other was in flight, went with the turn.
  await waitFor(async () => creates.length === 2, 10_000, 'the second turn sent');
  assert.equal(str(creates[1], 'model'), 'thinker', 'the model just chosen is the one asked');
  assert.equal(field(creates[1], 'max_output_tokens'), 64, 'the limit just set went with it');
  await turnsOver(page, 3, 30_000, 'the thinking turn stored (the stopped one is not kept)');
  const conv = decodeURIComponent(new URL(page.url()).hash.replace('#/chat/', ''));
  const thinkingTask = str((await listed(api, '/v1/tasks?limit=1'))[0], 'id');
  const types = (await listed(api, `/v1/conversations/${conv}/items?order=asc`)).map((i) => str(i, 'type'));
  assert.deepEqual(types.slice(-3), ['message', 'reasoning', 'message'], 'the question, the thought, the answer');
  const block = page.locator('[data-role=reasoning] [data-testid=chat-thought]').last();
  assert.equal(await block.getAttribute('open'), null, 'the stored thought is folded');
  assert.match((await block.getByTestId('chat-thought-label').textContent()) ?? '', /^Thought for (\d+(\.\d)? s|less than a second)$/);
  await block.locator('summary').click();
  assert.equal((await block.getByTestId('chat-thought-text').textContent())?.trim(), THINKING_MODEL_THOUGHT);
  const answers = page.locator('[data-role=assistant] [data-testid=chat-message-text]');
  assert.equal((await answers.last().textContent())?.trim(), TINY_MODEL_ANSWER, 'the answer is apart from the thought');
  const enViolations = await axeViolations(page, 'main');
  assert.deepEqual(enViolations, [], JSON.stringify(enViolations, null, 2));
  await gui.screenshot('chat-thought-en-1280');

  // The effort is a setting of the conversation: kept with it, sent with each turn.
  await openSettings();
  await page.getByTestId('chat-effort').selectOption('none');
  await waitFor(async () => field((await api.get(`/v1/conversations/${conv}`)).body, 'metadata', 'reasoning_effort') === 'none', 10_000, 'effort saved');
  await send(page, 'Answer at once');
  await turnsOver(page, 3 + 2, 30_000, 'the turn without thinking stored');
  const last = creates.at(-1);
  assert.equal(str(last, 'reasoning', 'effort'), 'none');
  assert.deepEqual(
    (await listed(api, `/v1/conversations/${conv}/items?order=asc`)).slice(-2).map((i) => str(i, 'type')),
    ['message', 'message'],
    'effort none: no thought',
  );
  await page.reload();
  await openSettings();
  assert.equal(await page.getByTestId('chat-effort').inputValue(), 'none', 'the effort came back with the conversation');

  // Arabic, at 390 px: the same blocks, worded in Arabic.
  await page.getByTestId('language-switch').click();
  await page.setViewportSize({ width: 390, height: 844 });
  const arBlock = page.locator('[data-role=reasoning] [data-testid=chat-thought]').last();
  await arBlock.locator('summary').click();
  assert.match((await arBlock.getByTestId('chat-thought-label').textContent()) ?? '', /فكّر|كيف فكّر النموذج/);
  const arViolations = await axeViolations(page, 'main');
  assert.deepEqual(arViolations, [], JSON.stringify(arViolations, null, 2));
  await gui.screenshot('chat-thought-ar-390');
  await page.getByTestId('language-switch').click();
  await page.setViewportSize({ width: 1280, height: 860 });

  // The Tasks page: the thought apart from the generated text.
  await page.goto(`${new URL(page.url()).origin}/#/tasks/${thinkingTask}`);
  await page.getByTestId('task-reasoning').waitFor({ timeout: 15_000 });
  assert.equal((await page.getByTestId('task-reasoning').textContent())?.trim(), THINKING_MODEL_THOUGHT);
  await waitFor(async () => ((await page.getByTestId('task-text').textContent()) ?? '').trim() === TINY_MODEL_ANSWER, 15_000, 'the task text');
  await gui.screenshot('tasks-reasoning-en');
});
