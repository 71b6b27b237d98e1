// The stand-in BrowserWindow with a real window: loadURL opens the page in headless Chromium
// (playwright-core, Debian's chromium, as the GUI tests use), with the app's real preload running in
// it (page-bridge.ts), the session's header listener applied to each document, and the app's
// will-navigate / will-redirect / window-open handlers deciding every navigation the page starts.
import { EventEmitter } from 'node:events';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Frame, type Page, type Request, type Route } from 'playwright-core';
import type { BrowserWindow, BrowserWindowConstructorOptions, HandlerDetails, WebContents, WindowOpenHandlerResponse } from 'electron';
import { chromiumPath } from '../../gui/browser.js';
import { app } from './app.js';
import { unknownKeys } from './declared-keys.js';
import { ipcMain } from './ipc-main.js';
import { IPC_BINDING, OPEN_BINDING, pageBridgeScript } from './page-bridge.js';
import type { WindowState } from './protocol.js';
import { reject, standInEvent, violations } from './recorder.js';
import { session } from './session.js';

let nextId = 1;
let browser: Promise<Browser> | null = null;
let defaultContext: Promise<BrowserContext> | null = null;
const byPage = new WeakMap<Page, StandInBrowserWindow>();
const frames = new WeakMap<Frame, StandInFrame>();

/** A WebFrameMain: the same object for the same frame, as Electron keeps it. */
class StandInFrame {
  constructor(private readonly frame: Frame) {}
  get url(): string {
    return this.frame.url();
  }
}

function frameOf(frame: Frame): StandInFrame {
  let f = frames.get(frame);
  if (f === undefined) {
    f = new StandInFrame(frame);
    frames.set(frame, f);
  }
  return f;
}

function launchBrowser(): Promise<Browser> {
  browser ??= chromium.launch({
    executablePath: chromiumPath(),
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
  });
  return browser;
}

function contextForDefaultSession(): Promise<BrowserContext> {
  defaultContext ??= (async () => {
    const context = await (await launchBrowser()).newContext({ viewport: { width: 1180, height: 780 } });
    await context.exposeBinding(IPC_BINDING, async (source: { page: Page; frame: Frame }, channel: unknown, args: unknown) => {
      const win = byPage.get(source.page);
      if (win === undefined || typeof channel !== 'string' || !Array.isArray(args)) return { ok: false, error: 'not a stand-in window' };
      return ipcMain.invoke(channel, { sender: win.webContents, senderFrame: frameOf(source.frame), frameId: 1, processId: process.pid }, args);
    });
    await context.exposeBinding(OPEN_BINDING, (source: { page: Page }, url: unknown, frameName: unknown, features: unknown) => {
      byPage.get(source.page)?.webContents.windowOpen(String(url), String(frameName), String(features));
    });
    await context.route('**/*', (route, request) => routeRequest(route, request));
    return context;
  })();
  return defaultContext;
}

async function routeRequest(route: Route, request: Request): Promise<void> {
  let frame: Frame;
  try {
    frame = request.frame();
  } catch {
    return route.continue(); // a service worker's request: no frame, no navigation
  }
  const win = byPage.get(frame.page());
  if (win === undefined || !request.isNavigationRequest() || frame !== frame.page().mainFrame()) return route.continue();
  if (!win.webContents.mayNavigate(request.url(), request.redirectedFrom() !== null)) return route.abort('aborted');
  const response = await route.fetch({ maxRedirects: 0 });
  const headers: Record<string, string[]> = {};
  for (const { name, value } of response.headersArray()) (headers[name] ??= []).push(value);
  const status = response.status();
  const rewritten = await session.defaultSession.webRequest.apply({
    id: nextId++,
    url: request.url(),
    method: request.method(),
    resourceType: 'mainFrame',
    referrer: '',
    timestamp: Date.now(),
    statusLine: `HTTP/1.1 ${status} ${response.statusText()}`,
    statusCode: status,
    responseHeaders: headers,
  });
  if (rewritten === null) return route.abort('blockedbyclient');
  // One header line per value: Playwright takes several values of one name joined by newlines.
  await route.fulfill({ response, headers: Object.fromEntries(Object.entries(rewritten).map(([k, v]) => [k, v.join('\n')])) });
}

type WebContentsApi = Pick<WebContents, 'setWindowOpenHandler' | 'getURL' | 'isDestroyed' | 'reload'>;

export class StandInWebContents extends EventEmitter implements WebContentsApi {
  readonly id = nextId++;
  page: Page | null = null;
  /** The URL loadURL is loading: that navigation is the app's own, not the page's (no will-navigate). */
  pendingLoad: string | null = null;
  readonly refusedNavigations: string[] = [];
  readonly deniedPopups: string[] = [];
  private openHandler: ((details: HandlerDetails) => WindowOpenHandlerResponse) | null = null;
  destroyed = false;

  setWindowOpenHandler(handler: (details: HandlerDetails) => WindowOpenHandlerResponse): void {
    this.openHandler = handler;
  }

  get mainFrame(): StandInFrame | null {
    return this.page === null ? null : frameOf(this.page.mainFrame());
  }

  getURL(): string {
    return this.page?.url() ?? '';
  }

  isDestroyed(): boolean {
    return this.destroyed;
  }

  /** Electron reloads a crashed renderer into a new process: here a new page loads the last URL. */
  reload(): void {
    if (this.page === null) return reject('webContents.reload() before the window loaded anything');
    this.reloads++;
    void this.reopen?.().catch((err: unknown) =>
      process.stderr.write(`stand-in window: the reload failed: ${err instanceof Error ? err.message : String(err)}\n`),
    );
  }

  reloads = 0;
  /** The window's way to load its page again in a new renderer (set by StandInBrowserWindow). */
  reopen: (() => Promise<void>) | null = null;
  /** The last address the page showed over http (a crash leaves chrome://crash in the page). */
  lastHttpUrl = '';

  /** Electron asks will-navigate (or will-redirect) for every navigation the page itself starts. */
  mayNavigate(url: string, redirect: boolean): boolean {
    if (!redirect && this.pendingLoad === url) {
      this.pendingLoad = null;
      return true;
    }
    const event = standInEvent({ url, isMainFrame: true, isSameDocument: false });
    this.emit(redirect ? 'will-redirect' : 'will-navigate', event, url);
    if (event.defaultPrevented) this.refusedNavigations.push(url);
    return !event.defaultPrevented;
  }

  windowOpen(url: string, frameName: string, features: string): void {
    const answer = this.openHandler?.({
      url,
      frameName,
      features,
      disposition: 'new-window',
      referrer: { url: this.getURL(), policy: 'strict-origin-when-cross-origin' },
    }) ?? { action: 'allow' };
    if (answer.action === 'deny') this.deniedPopups.push(url);
    else reject(`the app allowed window.open(${url}); the stand-in opens no second window (the app means to deny them all)`);
  }
}

type WindowApi = Pick<BrowserWindow, 'show' | 'hide' | 'focus' | 'isMinimized' | 'restore' | 'isVisible' | 'isDestroyed' | 'close' | 'destroy' | 'loadURL'>;

function checkOptions(options: BrowserWindowConstructorOptions): void {
  const unknown = unknownKeys(options, 'BrowserWindowConstructorOptions');
  if (unknown.length > 0) reject(`BrowserWindow options Electron does not know: ${unknown.join(', ')}`);
  const prefs = options.webPreferences ?? {};
  const unknownPrefs = unknownKeys(prefs, 'WebPreferences');
  if (unknownPrefs.length > 0) reject(`webPreferences Electron does not know: ${unknownPrefs.join(', ')}`);
  if (prefs.preload !== undefined) {
    if (!isAbsolute(prefs.preload)) reject(`the preload must be an absolute path, got "${prefs.preload}"`);
    if (!existsSync(prefs.preload) || !statSync(prefs.preload).isFile()) reject(`Unable to load preload script: ${prefs.preload} (not a file)`);
  }
  if (typeof options.icon === 'string' && !existsSync(options.icon)) reject(`the window icon ${options.icon} does not exist`);
}

export class StandInBrowserWindow extends EventEmitter implements WindowApi {
  static readonly all: StandInBrowserWindow[] = [];
  readonly webContents = new StandInWebContents();
  readonly loaded: string[] = [];
  private visible = false;
  private destroyed = false;
  private shownReady = false;

  constructor(readonly options: BrowserWindowConstructorOptions = {}) {
    super();
    if (!app.isReady()) reject('Cannot create BrowserWindow before app is ready');
    checkOptions(options);
    StandInBrowserWindow.all.push(this);
    this.webContents.reopen = () => this.reloadInNewPage();
    app.emit('browser-window-created', standInEvent({}), this);
    app.emit('web-contents-created', standInEvent({}), this.webContents);
    if (options.show !== false) this.visible = true;
  }

  /** A new page (a new renderer, as after a crash) on the address the old one last showed. */
  private async reloadInNewPage(): Promise<void> {
    const url = this.webContents.lastHttpUrl;
    const old = this.webContents.page;
    this.webContents.page = null;
    await old?.close().catch(() => undefined);
    const page = await this.ensurePage();
    this.webContents.pendingLoad = new URL(url).href;
    await page.goto(url, { waitUntil: 'load' });
    this.webContents.emit('did-finish-load', standInEvent({}));
  }

  async loadURL(url: string): Promise<void> {
    if (this.destroyed) reject('Object has been destroyed (loadURL)');
    this.loaded.push(url);
    const page = await this.ensurePage();
    this.webContents.pendingLoad = new URL(url).href;
    await page.goto(url, { waitUntil: 'load' });
    this.webContents.emit('did-finish-load', standInEvent({}));
    if (!this.shownReady) {
      this.shownReady = true;
      this.emit('ready-to-show', standInEvent({}));
    }
  }

  private async ensurePage(): Promise<Page> {
    if (this.webContents.page !== null) return this.webContents.page;
    const context = await contextForDefaultSession();
    const page = await context.newPage();
    byPage.set(page, this);
    this.webContents.page = page;
    const preload = this.options.webPreferences?.preload;
    if (preload !== undefined) await page.addInitScript({ content: pageBridgeScript(readFileSync(preload, 'utf8'), process.platform) });
    page.on('popup', (popup) => {
      violations.push(`a popup opened (${popup.url()}) although the window-open handler should deny it`);
      void popup.close();
    });
    page.on('pageerror', (err) => process.stderr.write(`stand-in window: the page threw: ${err.message}\n`));
    // The renderer died (a test's chrome://crash): Electron tells the web contents and the app.
    page.on('crash', () => {
      const details = { reason: 'crashed' as const, exitCode: 139 };
      this.webContents.emit('render-process-gone', standInEvent({}), details);
      app.emit('render-process-gone', standInEvent({}), this.webContents, details);
    });
    // Electron tells of a move inside the document (a new hash) as did-navigate-in-page.
    let shown = '';
    page.on('framenavigated', (frame) => {
      if (frame !== page.mainFrame()) return;
      const url = frame.url();
      if (url.startsWith('http')) this.webContents.lastHttpUrl = url;
      const sameDocument = shown !== '' && url.split('#')[0] === shown.split('#')[0] && url !== shown;
      shown = url;
      if (sameDocument) this.webContents.emit('did-navigate-in-page', standInEvent({}), url, true, 0, 0);
    });
    return page;
  }

  show(): void {
    this.visible = true;
  }

  hide(): void {
    this.visible = false;
  }

  focus(): void {
    // Focus has no meaning in a headless page; show() already made it visible.
  }

  isMinimized(): boolean {
    return false;
  }

  restore(): void {
    this.visible = true;
  }

  isVisible(): boolean {
    return this.visible && !this.destroyed;
  }

  isDestroyed(): boolean {
    return this.destroyed;
  }

  /** What a click on the window's close button does: 'close' (preventable), then destroy. */
  close(): void {
    if (this.destroyed) return;
    const event = standInEvent({});
    this.emit('close', event);
    if (!event.defaultPrevented) this.destroy();
  }

  destroy(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    this.visible = false;
    this.webContents.destroyed = true;
    void this.webContents.page?.close();
    this.emit('closed');
  }

  state(): WindowState {
    return {
      webPreferences: Object.fromEntries(Object.entries(this.options.webPreferences ?? {})),
      icon: typeof this.options.icon === 'string' ? this.options.icon : null,
      loaded: [...this.loaded],
      url: this.webContents.getURL(),
      visible: this.isVisible(),
      destroyed: this.destroyed,
      refusedNavigations: [...this.webContents.refusedNavigations],
      reloads: this.webContents.reloads,
      deniedPopups: [...this.webContents.deniedPopups],
    };
  }

  /** The window's page, for the test's look at it. */
  page(): Page {
    const page = this.webContents.page;
    if (page === null) throw new Error('the window has loaded nothing yet');
    return page;
  }
}

/** Electron's quit: each window gets 'close'; the quit goes on only if all of them closed. */
export function closeWindowsForQuit(): boolean {
  for (const w of StandInBrowserWindow.all) w.close();
  return StandInBrowserWindow.all.every((w) => w.isDestroyed());
}

export async function closeBrowser(): Promise<void> {
  const b = browser;
  browser = null;
  defaultContext = null;
  if (b !== null) await (await b).close().catch(() => undefined);
}
