// Reads a server-sent event stream the way a client would, frame by frame.
export interface SseFrame {
  id: string | null;
  event: string | null;
  data: unknown;
}

/**
 * Streams `url` and collects frames until the server closes, `stop(frame)` returns true, or the
 * time runs out. Returns the frames and the response status.
 */
export async function readSse(
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: string },
  stop: (frame: SseFrame, all: SseFrame[]) => boolean = () => false,
  timeoutMs = 30_000,
): Promise<{ status: number; frames: SseFrame[]; contentType: string | null }> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  const res = await fetch(url, { ...init, signal: controller.signal });
  const frames: SseFrame[] = [];
  if (!res.body) return { status: res.status, frames, contentType: res.headers.get('content-type') };
  const decoder = new TextDecoder();
  let buffer = '';
  try {
    const reader: ReadableStreamDefaultReader<Uint8Array> = res.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      buffer += decoder.decode(value, { stream: true });
      let cut: number;
      while ((cut = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, cut);
        buffer = buffer.slice(cut + 2);
        const frame = parseBlock(block);
        if (!frame) continue;
        frames.push(frame);
        if (stop(frame, frames)) {
          controller.abort();
          return { status: res.status, frames, contentType: res.headers.get('content-type') };
        }
      }
    }
  } catch (err) {
    if (!controller.signal.aborted) throw err;
  } finally {
    clearTimeout(timer);
  }
  return { status: res.status, frames, contentType: res.headers.get('content-type') };
}

function parseBlock(block: string): SseFrame | null {
  let id: string | null = null;
  let event: string | null = null;
  const data: string[] = [];
  for (const line of block.split('\n')) {
    if (line.startsWith(':') || line === '') continue;
    const i = line.indexOf(':');
    const key = i < 0 ? line : line.slice(0, i);
    const value = i < 0 ? '' : line.slice(i + 1).replace(/^ /, '');
    if (key === 'id') id = value;
    else if (key === 'event') event = value;
    else if (key === 'data') data.push(value);
  }
  if (id === null && event === null && data.length === 0) return null;
  return { id, event, data: data.length ? JSON.parse(data.join('\n')) : null };
}
