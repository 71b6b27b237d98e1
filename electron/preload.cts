// The preload: the page's only door to the desktop, `window.sanadDesktop` (bridge.ts). It runs in
// a sandboxed renderer, where only `require('electron')` exists, so it is one self-contained
// CommonJS file (.cts → preload.cjs) that imports nothing else at run time. Each method is one
// ipcRenderer.invoke to a handler in ipc.ts, which checks that the caller is the core's page.
import { contextBridge, ipcRenderer } from 'electron';
import type { BridgeChannel, BridgeGlobal, DesktopBridge, DesktopSession } from '../src/contract/desktop-bridge.js';

// The values of BRIDGE_CHANNELS, typed against them: a renamed channel fails this file's build.
const SESSION: BridgeChannel = 'sanad:session';
const PICK_MODEL: BridgeChannel = 'sanad:pick-model-file';
const PICK_FOLDER: BridgeChannel = 'sanad:pick-folder';
const GLOBAL: BridgeGlobal = 'sanadDesktop';

function isSession(value: unknown): value is DesktopSession {
  return typeof value === 'object' && value !== null && 'url' in value && 'loginCode' in value && typeof value.url === 'string' && typeof value.loginCode === 'string';
}

async function pathOrNull(channel: BridgeChannel): Promise<string | null> {
  const value: unknown = await ipcRenderer.invoke(channel);
  return typeof value === 'string' ? value : null;
}

const bridge: DesktopBridge = {
  session: async () => {
    const value: unknown = await ipcRenderer.invoke(SESSION);
    if (!isSession(value)) throw new Error('The desktop app did not give this page a session; restart Sanad.');
    return { url: value.url, loginCode: value.loginCode };
  },
  pickModelFile: () => pathOrNull(PICK_MODEL),
  pickFolder: () => pathOrNull(PICK_FOLDER),
  platform: process.platform === 'darwin' ? 'darwin' : process.platform === 'win32' ? 'win32' : 'linux',
};

contextBridge.exposeInMainWorld(GLOBAL, bridge);
