// What the stand-in runs in the window's page before any of the page's own scripts: the real
// compiled preload (dist/electron/preload.cjs, unchanged), wrapped as Electron's sandboxed preload
// wrapper calls it, with `require('electron')` giving only `contextBridge` and `ipcRenderer`.
// ipcRenderer.invoke goes to the main process through a Playwright binding that the wrapper takes
// for itself and removes from the page, so the page reaches the main process only through what
// the preload exposed. window.open asks the app's window-open handler (in the main process) and
// opens nothing here: the app denies every window.
//
// What this cannot reproduce: Electron runs the preload in a separate JavaScript world (context
// isolation). Here it shares the page's world, so the page could, for instance, replace
// Object.freeze before the preload ran; nothing of the page runs before it, though.

export const IPC_BINDING = '__standInElectronIpc';
export const OPEN_BINDING = '__standInElectronOpen';

export function pageBridgeScript(preloadSource: string, platform: string): string {
  return `(() => {
  if (globalThis.top !== globalThis.self) return; // nodeIntegrationInSubFrames: false, no preload in frames
  const ipc = globalThis[${JSON.stringify(IPC_BINDING)}];
  const open = globalThis[${JSON.stringify(OPEN_BINDING)}];
  delete globalThis[${JSON.stringify(IPC_BINDING)}];
  delete globalThis[${JSON.stringify(OPEN_BINDING)}];
  if (typeof ipc !== 'function' || typeof open !== 'function') throw new Error('stand-in Electron: the IPC bindings are missing');
  Object.defineProperty(globalThis, 'open', {
    configurable: false, writable: false,
    value: function open_(url, target, features) {
      const absolute = url === undefined || url === '' ? 'about:blank' : new URL(String(url), location.href).href;
      void open(absolute, target === undefined ? '' : String(target), features === undefined ? '' : String(features));
      return null;
    },
  });
  const copy = (value) => (value === undefined ? undefined : JSON.parse(JSON.stringify(value)));
  const electron = Object.freeze({
    contextBridge: Object.freeze({
      exposeInMainWorld(key, api) {
        if (key in globalThis) throw new Error('Cannot bind an API on top of an existing property on the window object');
        const exposed = {};
        for (const [name, value] of Object.entries(api)) {
          exposed[name] = typeof value === 'function' ? (...args) => Promise.resolve(value(...args.map(copy))).then(copy) : copy(value);
        }
        Object.defineProperty(globalThis, key, { value: Object.freeze(exposed), configurable: false, writable: false, enumerable: true });
      },
    }),
    ipcRenderer: Object.freeze({
      invoke: (channel, ...args) => ipc(String(channel), args.map(copy)).then((reply) => {
        if (reply.ok) return reply.value;
        throw new Error("Error invoking remote method '" + channel + "': Error: " + reply.error);
      }),
    }),
  });
  const require = (name) => {
    if (name === 'electron') return electron;
    throw new Error("module not found: " + name);
  };
  const module = { exports: {} };
  (function (require, process, exports, module) {
${preloadSource}
  })(require, Object.freeze({ platform: ${JSON.stringify(platform)}, sandboxed: true, type: 'renderer' }), module.exports, module);
})();`;
}
