// Opening a 500-message conversation, two ways, against a real `sanad serve`:
// - the API: the conversation and its newest page of items (what the Chat screen asks for first),
//   end to end over HTTP, against the same rows read with raw SQLite in this process (baseline);
// - the GUI: headless Chromium on another screen moves to #/chat/<id>; from that moment to the
//   newest 50 messages drawn (the goal: under 300 ms).
import Database from 'better-sqlite3';
import { performance } from 'node:perf_hooks';
import { chromium } from 'playwright-core';
import { str } from '../test/harness/api.js';
import { prepareDataDir } from '../test/harness/data-dir.js';
import { startServiceProcess } from '../test/harness/service-process.js';
import { chromiumPath } from '../test/gui/browser.js';
import { median } from './stats.js';
import { storePath } from '../src/files/data-dir-layout.js';

export interface ChatOpenBench {
  messages: number;
  apiMs: number;
  rawMs: number;
  guiMs: number;
  /** The longest frame while all ten pages were loaded and scrolled through. */
  scrollFrameMs: number;
  runs: number;
}

// The Chat screen's first page (renderer/src/screens/chat/api.ts ITEMS_PAGE): more than a window shows.
const PAGE = 30;

// Runs as the page's own script: the time from the hash change to PAGE messages drawn.
const OPEN = (id: string): string => `new Promise((resolve) => {
  const t0 = performance.now();
  location.hash = '#/chat/${id}';
  const tick = () => document.querySelectorAll('[data-testid=chat-message]').length >= ${PAGE} ? resolve(performance.now() - t0) : requestAnimationFrame(tick);
  requestAnimationFrame(tick);
})`;

// Loads every earlier page and scrolls from the top to the bottom, noting the longest frame.
const SCROLL = `new Promise(async (resolve) => {
  const scroller = document.querySelector('[data-testid=chat-scroll]');
  let longest = 0, last = performance.now(), on = true;
  const frame = () => { const now = performance.now(); longest = Math.max(longest, now - last); last = now; if (on) requestAnimationFrame(frame); };
  requestAnimationFrame(frame);
  for (;;) {
    const more = document.querySelector('[data-testid=chat-earlier]');
    if (!more) break;
    more.click();
    await new Promise((r) => setTimeout(r, 150));
  }
  for (let y = 0; y <= scroller.scrollHeight; y += 400) { scroller.scrollTop = y; await new Promise((r) => requestAnimationFrame(r)); }
  on = false;
  resolve(longest);
})`;

export async function chatOpenBench(messages: number, runs: number): Promise<ChatOpenBench> {
  const prepared = await prepareDataDir({ requests_per_minute_per_client: 1_000_000 });
  const sp = await startServiceProcess(prepared.dataDir, prepared.adminToken);
  const browser = await chromium.launch({ executablePath: chromiumPath(), headless: true, args: ['--no-sandbox', '--disable-gpu'] });
  try {
    const text = (i: number): string => `Message ${i}: ${'a few words of an ordinary reply, with **some** Markdown and `code`. '.repeat(4)}`;
    const conv = await sp.api.post('/v1/conversations', { metadata: { title: 'A long one', model: 'tiny' } });
    const id = str(conv.body, 'id');
    for (let i = 0; i < messages; i += 20) {
      const items = Array.from({ length: Math.min(20, messages - i) }, (_, j) => ({ role: (i + j) % 2 === 0 ? 'user' : 'assistant', content: text(i + j) }));
      const r = await sp.api.post(`/v1/conversations/${id}/items`, { items });
      if (r.status !== 200) throw new Error(`${r.status} ${r.text}`);
    }
    const raw = new Database(storePath(prepared.dataDir), { readonly: true });
    const rawOpen = (): number => {
      const t0 = performance.now();
      raw.prepare('SELECT * FROM conversations WHERE id = ?').get(id);
      const rows = raw
        .prepare<[string, number], { data: string }>('SELECT data FROM conversation_items WHERE conversation_id = ? ORDER BY position DESC LIMIT ?')
        .all(id, PAGE + 1);
      for (const r of rows) JSON.parse(r.data);
      return performance.now() - t0;
    };
    const apiOpen = async (): Promise<number> => {
      const t0 = performance.now();
      const [a, b] = await Promise.all([sp.api.get(`/v1/conversations/${id}`), sp.api.get(`/v1/conversations/${id}/items?order=desc&limit=${PAGE}`)]);
      if (a.status !== 200 || b.status !== 200) throw new Error(`${a.status} ${b.status}`);
      return performance.now() - t0;
    };
    await apiOpen();
    rawOpen();
    const apiMs: number[] = [];
    const rawMs: number[] = [];
    for (let i = 0; i < runs * 4; i++) {
      apiMs.push(await apiOpen());
      rawMs.push(rawOpen());
    }
    raw.close();

    const page = await (await browser.newContext({ viewport: { width: 1280, height: 860 } })).newPage();
    await page.goto(sp.loginUrl);
    await page.waitForURL((u) => u.pathname === '/');
    await page.getByTestId('live-state').waitFor();
    const guiMs: number[] = [];
    for (let i = 0; i <= runs; i++) {
      await page.evaluate(`location.hash = '#/overview'`);
      await page.locator('[data-testid=overview-verdict]').waitFor();
      // A fresh start each time: nothing of the conversation kept by the page's query cache.
      await page.reload();
      await page.getByTestId('live-state').waitFor();
      // A person reads the first screen for a moment before going to a conversation.
      await page.waitForTimeout(800);
      const ms = Number(await page.evaluate(OPEN(id)));
      if (i > 0) guiMs.push(ms); // the first also loads the chat screen's chunk
    }
    const scrollFrameMs = Number(await page.evaluate(SCROLL));
    return { messages, apiMs: median(apiMs), rawMs: median(rawMs), guiMs: median(guiMs), scrollFrameMs, runs };
  } finally {
    await browser.close();
    await sp.kill();
  }
}
