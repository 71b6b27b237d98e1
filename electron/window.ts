// The main window and the hardening of everything web in the app. Decisions are in logic/
// (url-policy.ts, csp.ts, window-options.ts); this file only connects them to Electron's events.
import { BrowserWindow, shell, type Session, type WebContents } from 'electron';
import type { Logger } from '../src/log/logger.js';
import { permissionAllowed, withCsp } from './logic/csp.js';
import { externalUrlVerdict, navigationAllowed } from './logic/url-policy.js';
import { mainWindowOptions } from './logic/window-options.js';

/** CSP on every response and no web permissions, for the session the window uses. */
export function hardenSession(session: Session, coreOrigin: string): void {
  session.webRequest.onHeadersReceived((details, callback) => {
    callback({ responseHeaders: withCsp(details.responseHeaders, details.url, coreOrigin) });
  });
  session.setPermissionRequestHandler((_wc, permission, callback, details) => callback(permissionAllowed(permission, details.requestingUrl, coreOrigin)));
  session.setPermissionCheckHandler((_wc, permission, _origin, details) => permissionAllowed(permission, details.requestingUrl ?? '', coreOrigin));
}

/** For every web contents the app ever creates: stay on the core, no new windows, no webviews. */
export function hardenContents(contents: WebContents, coreOrigin: string, logger: Logger): void {
  const guard = (event: { url: string; preventDefault(): void }): void => {
    if (navigationAllowed(event.url, coreOrigin)) return;
    event.preventDefault();
    openOutside(event.url, coreOrigin, logger);
  };
  contents.on('will-navigate', guard);
  contents.on('will-redirect', guard);
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler(({ url }) => {
    openOutside(url, coreOrigin, logger);
    return { action: 'deny' };
  });
}

/** A link that leaves the GUI goes to the user's browser, if url-policy allows it; else nowhere. */
function openOutside(url: string, coreOrigin: string, logger: Logger): void {
  const verdict = externalUrlVerdict(url, coreOrigin);
  if (!verdict.allowed) {
    logger.warn('blocked a link', { reason: verdict.reason });
    return;
  }
  shell
    .openExternal(verdict.url)
    .catch((err: unknown) => logger.warn('could not open a link in the browser', { error: err instanceof Error ? err.message : String(err) }));
}

export interface MainWindowHandle {
  window: BrowserWindow;
  show(): void;
}

/**
 * The window on the core's GUI. Closing it hides it (the app stays in the tray, on macOS too) unless
 * the app is quitting; `isQuitting` tells which.
 */
export function createMainWindow(options: { url: string; preload: string; icon?: string; show: boolean; isQuitting: () => boolean }): MainWindowHandle {
  const window = new BrowserWindow(mainWindowOptions(options.preload, options.icon));
  window.on('close', (event) => {
    if (options.isQuitting()) return;
    event.preventDefault();
    window.hide();
  });
  const show = (): void => {
    if (window.isMinimized()) window.restore();
    window.show();
    window.focus();
  };
  if (options.show) window.once('ready-to-show', show);
  void window.loadURL(options.url);
  return { window, show };
}
