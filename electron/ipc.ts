// The main side of the bridge (bridge.ts): one handler per channel, each refusing any caller but
// the core's own page in the main frame. The login code goes only this way: never in a URL the
// window loads, a log line or a file.
import { dialog, ipcMain, type BrowserWindow, type FileFilter, type IpcMainInvokeEvent } from 'electron';
import { BRIDGE_CHANNELS, type DesktopSession } from '../src/contract/desktop-bridge.js';
import { isCoreUrl } from './logic/url-policy.js';

export interface BridgeHost {
  coreOrigin: string;
  coreUrl: string;
  issueLoginCode(): string;
  window(): BrowserWindow | null;
}

function fromCore(event: IpcMainInvokeEvent, origin: string): boolean {
  const frame = event.senderFrame;
  return frame !== null && frame === event.sender.mainFrame && isCoreUrl(frame.url, origin);
}

async function pick(host: BridgeHost, properties: Array<'openFile' | 'openDirectory' | 'createDirectory'>, filters: FileFilter[]): Promise<string | null> {
  const win = host.window();
  const options = { properties, filters };
  const result = win ? await dialog.showOpenDialog(win, options) : await dialog.showOpenDialog(options);
  return result.canceled ? null : (result.filePaths[0] ?? null);
}

export function registerBridge(host: BridgeHost): void {
  const refuse = (): never => {
    throw new Error('This page may not use the Sanad desktop bridge.');
  };
  ipcMain.handle(BRIDGE_CHANNELS.session, (event): DesktopSession => {
    if (!fromCore(event, host.coreOrigin)) return refuse();
    return { url: host.coreUrl, loginCode: host.issueLoginCode() };
  });
  ipcMain.handle(BRIDGE_CHANNELS.pickModelFile, (event) =>
    fromCore(event, host.coreOrigin)
      ? pick(
          host,
          ['openFile'],
          [
            { name: 'GGUF models', extensions: ['gguf'] },
            { name: 'All files', extensions: ['*'] },
          ],
        )
      : refuse(),
  );
  ipcMain.handle(BRIDGE_CHANNELS.pickFolder, (event) => (fromCore(event, host.coreOrigin) ? pick(host, ['openDirectory', 'createDirectory'], []) : refuse()));
}
