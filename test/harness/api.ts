// A small HTTP client for tests: JSON in, JSON out, with status and headers kept.
export interface ApiResponse {
  status: number;
  headers: Headers;
  body: unknown;
  text: string;
}

export class Api {
  constructor(
    readonly url: string,
    readonly token: string | null,
  ) {}

  withToken(token: string | null): Api {
    return new Api(this.url, token);
  }

  async request(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<ApiResponse> {
    const h: Record<string, string> = { ...headers };
    if (this.token) h.authorization = `Bearer ${this.token}`;
    let payload: string | undefined;
    if (body !== undefined) {
      payload = typeof body === 'string' ? body : JSON.stringify(body);
      h['content-type'] ??= 'application/json';
    }
    const res = await fetch(this.url + path, { method, headers: h, ...(payload !== undefined ? { body: payload } : {}) });
    const text = await res.text();
    let parsed: unknown = null;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      parsed = null;
    }
    return { status: res.status, headers: res.headers, body: parsed, text };
  }

  get(path: string, headers?: Record<string, string>): Promise<ApiResponse> {
    return this.request('GET', path, undefined, headers);
  }

  post(path: string, body?: unknown, headers?: Record<string, string>): Promise<ApiResponse> {
    return this.request('POST', path, body, headers);
  }

  delete(path: string): Promise<ApiResponse> {
    return this.request('DELETE', path);
  }
}

/** Reads a property path from an unknown JSON value (tests only; throws if absent). */
export function field(value: unknown, ...path: Array<string | number>): unknown {
  let cur: unknown = value;
  for (const key of path) {
    if (cur === null || typeof cur !== 'object') throw new Error(`no ${path.join('.')} in ${JSON.stringify(value)}`);
    cur = Object.entries(cur).find(([k]) => k === String(key))?.[1];
  }
  return cur;
}

export function str(value: unknown, ...path: Array<string | number>): string {
  const v = field(value, ...path);
  if (typeof v !== 'string') throw new Error(`${path.join('.')} is not a string in ${JSON.stringify(value)}`);
  return v;
}

export function num(value: unknown, ...path: Array<string | number>): number {
  const v = field(value, ...path);
  if (typeof v !== 'number') throw new Error(`${path.join('.')} is not a number in ${JSON.stringify(value)}`);
  return v;
}

/** Polls until `check` returns a value (not undefined/false) or the time runs out. */
export async function waitFor<T>(check: () => Promise<T | undefined | false> | T | undefined | false, timeoutMs = 20_000, what = 'condition'): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await check();
    if (v !== undefined && v !== false) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** Whether no run of these kinds is open (GET /admin/runs?open=true): asked for and not ended.
 *  `backup` alone also waits out the maintenance after it, as "the backup is over" means to a person. */
export async function noOpenRun(api: Api, ...kinds: string[]): Promise<boolean> {
  const wanted = kinds.includes('backup') ? [...kinds, 'maintenance'] : kinds;
  const res = await api.get('/admin/runs?open=true');
  const data = field(res.body, 'data');
  return res.status === 200 && Array.isArray(data) && !data.some((r: unknown) => wanted.includes(str(r, 'kind')));
}
