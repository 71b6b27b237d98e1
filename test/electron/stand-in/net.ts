// The stand-in `net.request` (what electron-updater downloads with) over Node's own http/https:
// the same request and response events the updater listens to ('response', 'error', data, end).
// Electron refuses a protocol other than http: and https:, and so does this. `autoUpdater` is
// Electron's native (Squirrel) updater object: on Linux only an event emitter, which
// electron-updater tells "before-quit-for-update" as it quits to install.
import { EventEmitter } from 'node:events';
import { request as httpRequest, type ClientRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { ClientRequestConstructorOptions } from 'electron';
import { reject } from './recorder.js';

export const requested: string[] = [];

export const net = {
  request(options: ClientRequestConstructorOptions | string): ClientRequest {
    const url =
      typeof options === 'string'
        ? new URL(options)
        : new URL(
            options.url ??
              `${options.protocol ?? 'http:'}//${options.hostname ?? options.host ?? 'localhost'}${options.port !== undefined ? `:${String(options.port)}` : ''}${options.path ?? '/'}`,
          );
    if (url.protocol !== 'http:' && url.protocol !== 'https:') reject(`net.request: protocol "${url.protocol}" is not http: or https:`);
    requested.push(url.href);
    const headers = typeof options === 'string' ? {} : (options.headers ?? {});
    const method = typeof options === 'string' ? 'GET' : (options.method ?? 'GET');
    return (url.protocol === 'https:' ? httpsRequest : httpRequest)(url, { method, headers });
  },
};

export const autoUpdater = new EventEmitter();
