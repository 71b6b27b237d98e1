// The stand-in `session.defaultSession`: the app's header rewriting (its CSP) and permission
// handlers. The window module applies the header listener to every document the window loads.
import type { HeadersReceivedResponse, OnHeadersReceivedListenerDetails, Session, WebRequest, WebRequestFilter } from 'electron';

type HeadersListener = (details: OnHeadersReceivedListenerDetails, callback: (response: HeadersReceivedResponse) => void) => void;

class StandInWebRequest implements Pick<WebRequest, 'onHeadersReceived'> {
  listener: HeadersListener | null = null;
  rewritten = 0;

  onHeadersReceived(filterOrListener: WebRequestFilter | HeadersListener | null, listener?: HeadersListener | null): void {
    // Electron's two forms: (listener) and (filter, listener). The app uses the first.
    if (typeof filterOrListener === 'function' || filterOrListener === null) this.listener = filterOrListener;
    else this.listener = listener ?? null;
  }

  /** The headers after the app's listener, or null when it cancelled the response. */
  async apply(details: OnHeadersReceivedListenerDetails): Promise<Record<string, string[]> | null> {
    const listener = this.listener;
    if (listener === null) return details.responseHeaders ?? {};
    const answer = await new Promise<HeadersReceivedResponse>((resolve) => listener(details, resolve));
    if (answer.cancel === true) return null;
    this.rewritten += 1;
    const out: Record<string, string[]> = {};
    for (const [name, value] of Object.entries(answer.responseHeaders ?? details.responseHeaders ?? {})) out[name] = Array.isArray(value) ? value : [value];
    return out;
  }
}

type SessionApi = Pick<Session, 'setPermissionRequestHandler' | 'setPermissionCheckHandler'>;

export class StandInSession implements SessionApi {
  readonly webRequest = new StandInWebRequest();
  permissionRequestHandler = false;
  permissionCheckHandler = false;

  setPermissionRequestHandler(handler: Parameters<Session['setPermissionRequestHandler']>[0]): void {
    this.permissionRequestHandler = handler !== null;
  }

  setPermissionCheckHandler(handler: Parameters<Session['setPermissionCheckHandler']>[0]): void {
    this.permissionCheckHandler = handler !== null;
  }
}

const partitions = new Map<string, StandInSession>();

export const session = {
  defaultSession: new StandInSession(),
  /** A session of its own per partition name (electron-updater downloads in "electron-updater"). */
  fromPartition(partition: string): StandInSession {
    let found = partitions.get(partition);
    if (found === undefined) {
      found = new StandInSession();
      partitions.set(partition, found);
    }
    return found;
  },
};
