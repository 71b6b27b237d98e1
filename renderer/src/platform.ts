// What the desktop shell adds to the page. In the Electron window its preload script puts a small
// bridge on `window.sanadDesktop` (native file and folder dialogs); in a browser tab opened from
// `sanad serve` there is none, and screens simply do not offer those buttons. Every field of the
// bridge is optional to the GUI: it only ever asks `desktopBridge()` and checks for null.

export interface DesktopBridge {
  /** A native "open file" dialog; the chosen absolute path, or null if the user cancelled. */
  pickModelFile(): Promise<string | null>;
  /** A native "choose folder" dialog; the chosen absolute path, or null if the user cancelled. */
  pickFolder(): Promise<string | null>;
}

declare global {
  interface Window {
    sanadDesktop?: DesktopBridge;
  }
}

/** The desktop shell's bridge, or null in a plain browser. */
export function desktopBridge(): DesktopBridge | null {
  return typeof window === 'undefined' ? null : (window.sanadDesktop ?? null);
}
