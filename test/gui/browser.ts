// Headless Chromium (Debian's `chromium`, driven by playwright-core, a fresh temporary profile each launch) against a real `sanad serve`:
// the GUI e2e tests sign in by the one-time login URL exactly as a person would. Screenshots go to
// .test-artifacts/screenshots/ (git-ignored; CI keeps it as an artifact).
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

const CANDIDATES = [process.env.SANAD_CHROMIUM, '/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'];

export function chromiumPath(): string {
  const found = CANDIDATES.find((p): p is string => typeof p === 'string' && p !== '' && existsSync(p));
  if (!found) throw new Error('Chromium is not installed; run scripts/setup.sh (apt-get install chromium) or set SANAD_CHROMIUM.');
  return found;
}

export const SCREENSHOT_DIR = join(process.cwd(), '.test-artifacts', 'screenshots');

export interface Gui {
  browser: Browser;
  context: BrowserContext;
  page: Page;
  /** Saves a full-page screenshot as <name>.png under SCREENSHOT_DIR. */
  screenshot(name: string): Promise<string>;
  close(): Promise<void>;
}

/** A fresh browser profile, signed in to the service at `loginUrl`, on the overview screen. */
export async function openGui(loginUrl: string, options: { locale?: string; colorScheme?: 'light' | 'dark' } = {}): Promise<Gui> {
  const browser = await chromium.launch({
    executablePath: chromiumPath(),
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
  const context = await browser.newContext({
    viewport: { width: 1280, height: 860 },
    locale: options.locale ?? 'en-US',
    colorScheme: options.colorScheme ?? 'light',
  });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(loginUrl);
  await page.waitForURL((url) => url.pathname === '/', { timeout: 15_000 });
  await page.getByTestId('live-state').waitFor();
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  return {
    browser,
    context,
    page,
    screenshot: async (name) => {
      const path = join(SCREENSHOT_DIR, `${name}.png`);
      await page.screenshot({ path, fullPage: true });
      return path;
    },
    close: async () => {
      await browser.close();
      if (errors.length > 0) throw new Error(`The page threw: ${errors.join('; ')}`);
    },
  };
}
