// The main window's options, hardening included, as plain data: window.ts passes this object to
// `new BrowserWindow`, which type-checks it against Electron's own definitions, and the test here
// checks that no hardening flag is ever dropped. The page is the core's GUI; it gets no Node, no
// direct IPC, only the preload's narrow bridge (contextIsolation), in a sandboxed renderer.
export interface MainWindowOptions {
  width: number;
  height: number;
  minWidth: number;
  minHeight: number;
  show: false;
  title: string;
  backgroundColor: string;
  icon?: string;
  webPreferences: {
    preload: string;
    contextIsolation: true;
    sandbox: true;
    nodeIntegration: false;
    nodeIntegrationInWorker: false;
    nodeIntegrationInSubFrames: false;
    webSecurity: true;
    allowRunningInsecureContent: false;
    webviewTag: false;
    navigateOnDragDrop: false;
    safeDialogs: true;
    spellcheck: false;
  };
}

export function mainWindowOptions(preload: string, icon?: string): MainWindowOptions {
  return {
    width: 1180,
    height: 780,
    minWidth: 760,
    minHeight: 520,
    // Shown on 'ready-to-show' (or not at all when started at login): no white flash.
    show: false,
    title: 'Sanad',
    backgroundColor: '#ffffff',
    ...(icon !== undefined ? { icon } : {}),
    webPreferences: {
      preload,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      // A file dropped on the window must not replace the GUI with that file.
      navigateOnDragDrop: false,
      safeDialogs: true,
      spellcheck: false,
    },
  };
}
