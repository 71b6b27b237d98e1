// The window's content security policy and permissions. The core already sends GUI_CSP with its
// page (routes/gui.ts); the shell sets it again on every response it receives, so a response
// without it (an error page, a redirect, a future route) is covered too, and anything that is not
// the core gets a policy that allows nothing.
import { GUI_CSP } from '../../src/service/routes/gui.js';
import { isCoreUrl } from './url-policy.js';

export const NOTHING_CSP = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

export type ResponseHeaders = Record<string, string[]>;

/** The headers with exactly one CSP: the GUI's for the core's responses, "nothing" for the rest. */
export function withCsp(headers: ResponseHeaders | undefined, url: string, coreOrigin: string): ResponseHeaders {
  const out: ResponseHeaders = {};
  for (const [name, value] of Object.entries(headers ?? {})) {
    // Header names arrive in any case; a second CSP from upstream would only narrow ours, but one
    // policy is easier to reason about.
    if (name.toLowerCase() !== 'content-security-policy') out[name] = value;
  }
  out['Content-Security-Policy'] = [isCoreUrl(url, coreOrigin) ? GUI_CSP : NOTHING_CSP];
  return out;
}

/**
 * Web permissions (camera, notifications, geolocation…) are refused: the GUI needs none, and the
 * main process shows native notifications itself. One exception: writing to the clipboard from the
 * core's page, so "copy" buttons (the recovery kit, a login link) work; reading is still refused.
 */
export function permissionAllowed(permission: string, requestingUrl: string, coreOrigin: string): boolean {
  return permission === 'clipboard-sanitized-write' && isCoreUrl(requestingUrl, coreOrigin);
}
