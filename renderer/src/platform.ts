// What the desktop shell adds to the page. In the Electron window its preload script puts a small
// bridge on `window.sanadDesktop` (the per-launch sign-in, native file and folder dialogs); in a
// browser tab opened from `sanad serve` there is none, and screens simply do not offer those
// buttons. The type is the shell's own (src/contract/desktop-bridge.ts): a change there breaks this build too.
import type { DesktopBridge } from '../../src/contract/desktop-bridge';

export type { DesktopBridge };

declare global {
  interface Window {
    sanadDesktop?: DesktopBridge;
  }
}

/** The desktop shell's bridge, or null in a plain browser. */
export function desktopBridge(): DesktopBridge | null {
  return typeof window === 'undefined' ? null : (window.sanadDesktop ?? null);
}

/**
 * In the desktop window the page is not opened by a login link: the shell hands a one-time code
 * through the preload only, and the page redeems it once (GET /login sets the HttpOnly session
 * cookie). In a browser this does nothing. Errors are left to the screens (they show "signed out").
 */
export async function signInThroughDesktop(): Promise<void> {
  const bridge = desktopBridge();
  if (!bridge) return;
  const probe = await fetch('/admin/status', { credentials: 'same-origin' }).catch(() => null);
  if (probe === null || probe.status !== 401) return;
  const { loginCode } = await bridge.session();
  await fetch(`/login?code=${encodeURIComponent(loginCode)}`, { credentials: 'same-origin', redirect: 'manual' }).catch(() => null);
}
