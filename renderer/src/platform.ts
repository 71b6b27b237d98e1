// What the desktop shell adds to the page. In the Electron window its preload script puts a small
// bridge on `window.sanadDesktop` (the per-launch sign-in, native file and folder dialogs); in a
// browser tab opened from `sanad serve` there is none, and screens simply do not offer those
// buttons. The type is the shell's own (src/contract/desktop-bridge.ts): a change there breaks this build too.
import type { DesktopBridge } from '../../src/contract/desktop-bridge';
import { setSessionRenewal } from './api/http';
import { sessionTokenNow, signInWithCode } from './api/session';

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
 * through the preload only, and the page trades it for a session (api/session.ts). The same
 * happens again when the session ends while the window is open. In a browser this does nothing.
 * Errors are left to the screens (they show "signed out").
 */
export async function signInThroughDesktop(): Promise<void> {
  const bridge = desktopBridge();
  if (!bridge) return;
  const renew = async (): Promise<boolean> => {
    const session = await bridge.session().catch(() => null);
    return session !== null && (await signInWithCode(session.loginCode));
  };
  setSessionRenewal(renew);
  if (sessionTokenNow() !== null) return;
  await renew();
}
