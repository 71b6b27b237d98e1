// The GUI's first screen: from navigation start to the Overview's verdict drawn from real data
// (data-level no longer "loading"), in headless Chromium against a real `sanad serve`, signed in,
// warm (the second load of the tab; the first loads the model and fills caches). Baseline in the
// same run: the same navigation to the login page, which is one static HTML page and no data.
import { chromium } from 'playwright-core';
import { chromiumPath } from '../test/gui/browser.js';
import { prepareDataDir } from '../test/harness/data-dir.js';
import { startServiceProcess } from '../test/harness/service-process.js';
import { median } from './stats.js';

// Runs in the page before its scripts (injected by the browser, not eval: the GUI's CSP forbids
// that): notes when the verdict first shows a level from data.
const WATCH = `
  new MutationObserver((_m, obs) => {
    const el = document.querySelector('[data-testid=overview-verdict]');
    const level = el && el.getAttribute('data-level');
    if (level && level !== 'loading') { window.__drawn = performance.now(); obs.disconnect(); }
  }).observe(document, { subtree: true, childList: true, attributes: true });
`;

export async function firstScreenBench(runs: number): Promise<{ drawnMs: number; loginPageMs: number; runs: number }> {
  const prepared = await prepareDataDir();
  const service = await startServiceProcess(prepared.dataDir, prepared.adminToken);
  const browser = await chromium.launch({ executablePath: chromiumPath(), headless: true, args: ['--no-sandbox', '--disable-gpu'] });
  try {
    const page = await (await browser.newContext()).newPage();
    await page.addInitScript(WATCH);
    await page.goto(service.loginUrl);
    await page.waitForURL((u) => u.pathname === '/');
    await page.waitForFunction(() => Reflect.get(globalThis, '__drawn') !== undefined, undefined, { timeout: 20_000 });
    const drawn: number[] = [];
    const login: number[] = [];
    for (let i = 0; i < runs; i++) {
      await page.reload();
      await page.waitForFunction(() => Reflect.get(globalThis, '__drawn') !== undefined, undefined, { timeout: 20_000 });
      drawn.push(Number(await page.evaluate((): unknown => Reflect.get(globalThis, '__drawn'))));
      const other = await browser.newPage();
      await other.goto(`${service.url}/login`);
      await other.waitForLoadState('load');
      // The browser's navigation entry (Node's types do not know the kind): its load end.
      login.push(
        Number(
          await other.evaluate((): unknown => Reflect.get(performance.getEntries().find((e) => String(e.entryType) === 'navigation') ?? {}, 'loadEventEnd')),
        ),
      );
      await other.close();
    }
    return { drawnMs: median(drawn), loginPageMs: median(login), runs };
  } finally {
    await browser.close();
    await service.stop();
    prepared.cleanup();
  }
}
