// Server-sent events over fetch, so the stream carries the session header (EventSource can send
// no header, only cookies, which Sanad no longer uses: session.ts). It behaves as EventSource does:
// it reconnects after a drop, sending Last-Event-ID so a task stream resumes after the last event
// seen, and stops for good on an answer that a retry cannot change (401, 403, 404).
import type { z } from 'zod/v3';
import { sessionHeaders } from './session';

export interface StreamHandlers {
  onOpen?(): void;
  onEvent(type: string, data: string): void;
  /** `closed`: it will not reconnect (signed out, gone); otherwise it is reconnecting. */
  onError?(closed: boolean): void;
}

const RETRY_MS = [1_000, 2_000, 5_000, 10_000];
const FINAL = new Set([401, 403, 404, 410]);

export function openEventStream(path: string, handlers: StreamHandlers): { close(): void } {
  const abort = new AbortController();
  let lastId: string | null = null;
  let attempt = 0;

  const read = async (body: ReadableStream<Uint8Array>): Promise<void> => {
    const reader = body.getReader();
    const decoder = new TextDecoder();
    let buffer = '';
    let type = 'message';
    let data: string[] = [];
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      buffer += decoder.decode(value, { stream: true });
      let nl: number;
      while ((nl = buffer.search(/\r?\n/)) >= 0) {
        const line = buffer.slice(0, nl);
        buffer = buffer.slice(buffer[nl] === '\r' ? nl + 2 : nl + 1);
        if (line === '') {
          if (data.length > 0) handlers.onEvent(type, data.join('\n'));
          type = 'message';
          data = [];
          continue;
        }
        if (line.startsWith(':')) continue; // a comment: the heartbeat
        const colon = line.indexOf(':');
        const field = colon < 0 ? line : line.slice(0, colon);
        const raw = colon < 0 ? '' : line.slice(colon + 1);
        const val = raw.startsWith(' ') ? raw.slice(1) : raw;
        if (field === 'event') type = val;
        else if (field === 'data') data.push(val);
        else if (field === 'id') lastId = val;
      }
    }
  };

  const connect = async (): Promise<void> => {
    while (!abort.signal.aborted) {
      try {
        const res = await fetch(path, {
          headers: { accept: 'text/event-stream', ...sessionHeaders(), ...(lastId === null ? {} : { 'Last-Event-ID': lastId }) },
          signal: abort.signal,
          cache: 'no-store',
        });
        if (FINAL.has(res.status)) {
          handlers.onError?.(true);
          return;
        }
        if (res.ok && res.body !== null) {
          attempt = 0;
          handlers.onOpen?.();
          await read(res.body);
        }
      } catch {
        if (abort.signal.aborted) return;
      }
      if (abort.signal.aborted) return;
      handlers.onError?.(false);
      await new Promise((r) => setTimeout(r, RETRY_MS[Math.min(attempt++, RETRY_MS.length - 1)]));
    }
  };
  void connect();
  return { close: () => abort.abort() };
}

/** One frame's data as the contract's shape, or null (not JSON, or not that shape: a reader skips it). */
export function parseFrame<T>(data: string, schema: z.ZodType<T, z.ZodTypeDef, unknown>): T | null {
  let value: unknown;
  try {
    value = JSON.parse(data);
  } catch {
    return null;
  }
  const parsed = schema.safeParse(value);
  return parsed.success ? parsed.data : null;
}
