// The one contract between the desktop shell and the GUI: what the preload exposes to the page as
// `window.sanadDesktop`. The preload declares its object with this type and the renderer imports
// the same type, so a change here breaks the build of whichever side was not updated.
// Types only: the sandboxed preload cannot load a second module at run time.

export interface DesktopSession {
  /** The core's base URL (`http://127.0.0.1:PORT`), the page's own origin. */
  url: string;
  /** A fresh one-time code: GET /login?code=… once, which sets the HttpOnly session cookie. */
  loginCode: string;
}

export interface DesktopBridge {
  /** Asks the main process for a login code; every call issues a new one (the older one dies). */
  session(): Promise<DesktopSession>;
  /** A native "open file" dialog for a model (.gguf); null when cancelled. */
  pickModelFile(): Promise<string | null>;
  /** A native folder dialog (a restore target, a repository folder); null when cancelled. */
  pickFolder(): Promise<string | null>;
  platform: 'linux' | 'darwin' | 'win32';
}

/** The global the preload defines: `window.sanadDesktop` (absent in a plain browser / `sanad serve`). */
export const BRIDGE_GLOBAL = 'sanadDesktop';
export type BridgeGlobal = typeof BRIDGE_GLOBAL;

/** What the renderer can merge into its Window: `declare global { interface Window extends DesktopGlobals {} }`. */
export type DesktopGlobals = { [K in BridgeGlobal]?: DesktopBridge };

/** IPC channel per bridge method (main: ipc.ts, preload: preload.cts). */
export const BRIDGE_CHANNELS = {
  session: 'sanad:session',
  pickModelFile: 'sanad:pick-model-file',
  pickFolder: 'sanad:pick-folder',
} as const;
export type BridgeChannel = (typeof BRIDGE_CHANNELS)[keyof typeof BRIDGE_CHANNELS];
