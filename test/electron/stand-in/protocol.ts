// The control channel between a test and the stand-in Electron inside the app's process (Node's
// fork IPC): the test asks (a tray click, a power event, a look at the page), the stand-in answers
// with what the app asked of "Electron" so far. Plain JSON both ways.

export type Command =
  | { op: 'state' }
  | { op: 'tray-click'; label: string }
  | { op: 'tray-activate' }
  | { op: 'power'; event: 'suspend' | 'resume' | 'shutdown' }
  /** Unplugs (true) or plugs in (false) the laptop: what powerMonitor.isOnBatteryPower() answers. */
  | { op: 'battery'; on: boolean }
  | { op: 'close-window' }
  | { op: 'quit' }
  /** The names of the cookies the window's session holds. */
  | { op: 'cookies' }
  /** Evaluates a JavaScript expression in the window's page (its main world) and returns it. */
  | { op: 'page-eval'; expression: string }
  /** Waits for a CSS selector in the window's page. */
  | { op: 'page-wait'; selector: string; timeoutMs: number }
  /** An error nobody catches, thrown in the app's main process on its next turn. */
  | { op: 'throw-in-main'; message: string }
  /** Kills the window's renderer, as a crash would (chrome://crash). */
  | { op: 'crash-renderer' };

export interface Request {
  id: number;
  command: Command;
}
export type Reply = { id: number; ok: true; value: unknown } | { id: number; ok: false; error: string };
/** Sent without being asked: a rejected call (also thrown in the app), and the exit code. */
export type Notice = { notice: 'violation'; message: string } | { notice: 'exit'; code: number };

export interface WindowState {
  webPreferences: Record<string, unknown>;
  icon: string | null;
  /** Every URL loadURL was given, in order. */
  loaded: string[];
  /** The page's URL now ('' before the first load). */
  url: string;
  visible: boolean;
  destroyed: boolean;
  /** Navigations the app's will-navigate / will-redirect handlers refused, and window.open calls it denied. */
  refusedNavigations: string[];
  deniedPopups: string[];
  /** webContents.reload() calls (after a crash). */
  reloads: number;
}

export interface MenuItemState {
  type: string;
  label: string;
  enabled: boolean;
  checked: boolean;
}

export interface StandInState {
  app: { name: string; sandbox: boolean; userData: string; logs: string; hasLock: boolean; ready: boolean };
  secondInstances: Array<{ argv: string[]; cwd: string }>;
  windows: WindowState[];
  tray: { image: string; tooltip: string; menu: MenuItemState[]; destroyed: boolean } | null;
  /** The tray image paths in the order they were set (one entry per change). */
  trayImages: string[];
  notifications: Array<{ title: string; body: string; urgency: string; icon: string }>;
  errorBoxes: Array<{ title: string; content: string }>;
  messageBoxes: Array<{ type: string; title: string; message: string; detail: string; buttons: string[]; answered: number }>;
  /** Files the save dialogs picked. */
  saved: string[];
  openedExternally: string[];
  ipcChannels: string[];
  /** Utility processes the app forked, with the exit code once they ended. */
  /** URLs the app fetched with net.request (the update feed and download). */
  netRequests: string[];
  utilityForks: Array<{ modulePath: string; serviceName: string; args: string[]; exitCode: number | null }>;
  session: { headersHandler: boolean; permissionRequestHandler: boolean; permissionCheckHandler: boolean; headersRewritten: number };
  violations: string[];
}
