// The stand-in `ipcMain`: handle() registers one handler per channel (a second one is refused, as
// in Electron), and the window's page reaches them through ipcRenderer.invoke (page-bridge.ts).
import type { IpcMain, IpcMainInvokeEvent } from 'electron';
import { reject } from './recorder.js';

/** The members of IpcMainInvokeEvent the stand-in gives a handler (Electron documents them all). */
export interface StandInInvokeEvent {
  sender: { id: number; mainFrame: unknown };
  senderFrame: { url: string } | null;
  frameId: number;
  processId: number;
}

// Stored with a method signature: its parameters are compared both ways, so the app's handlers,
// typed for Electron's full IpcMainInvokeEvent, fit a store that is called with the stand-in's
// event (which has every member the app reads) without a cast.
interface StoredHandler {
  run(event: StandInInvokeEvent, ...args: unknown[]): unknown;
}

class StandInIpcMain implements Pick<IpcMain, 'handle' | 'removeHandler'> {
  private readonly handlers = new Map<string, StoredHandler>();

  handle(channel: string, listener: (event: IpcMainInvokeEvent, ...args: unknown[]) => unknown): void {
    if (this.handlers.has(channel)) reject(`Attempted to register a second handler for '${channel}'`);
    this.handlers.set(channel, { run: listener });
  }

  removeHandler(channel: string): void {
    this.handlers.delete(channel);
  }

  channels(): string[] {
    return [...this.handlers.keys()].sort();
  }

  async invoke(channel: string, event: StandInInvokeEvent, args: unknown[]): Promise<{ ok: true; value: unknown } | { ok: false; error: string }> {
    const handler = this.handlers.get(channel);
    if (handler === undefined) return { ok: false, error: `No handler registered for '${channel}'` };
    try {
      return { ok: true, value: await handler.run(event, ...args) };
    } catch (err) {
      return { ok: false, error: err instanceof Error ? err.message : String(err) };
    }
  }
}

export const ipcMain = new StandInIpcMain();
