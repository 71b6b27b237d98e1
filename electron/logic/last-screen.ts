// The screen the person was on last (the GUI's hash route, e.g. `#/chat/conv_…`), remembered by the
// shell across launches, so the window (and the tray's "Open Sanad") opens where they left off:
// most often the conversation they were having. The page's origin changes every launch (the core
// binds a fresh port), so the page cannot keep this itself. Only a route of the core's own page,
// of a plain shape, is kept: the hash is put back into a URL, so nothing else may ride in it.
import { isCoreUrl } from './url-policy.js';

const ROUTE = /^#\/[a-z]{1,20}(?:\/[A-Za-z0-9_%.-]{1,200})?$/;

/** The route a navigation inside the page went to, or null when it is not one to remember. */
export function screenToRemember(url: string, coreOrigin: string): string | null {
  if (!isCoreUrl(url, coreOrigin)) return null;
  const { pathname, search, hash } = new URL(url);
  if (pathname !== '/' || search !== '') return null;
  return ROUTE.test(hash) ? hash : null;
}

/** The address the window opens: the GUI, on the remembered screen if there is a good one. */
export function windowUrl(coreUrl: string, lastScreen: string | null | undefined): string {
  return `${coreUrl}/${lastScreen !== null && lastScreen !== undefined && ROUTE.test(lastScreen) ? lastScreen : ''}`;
}
