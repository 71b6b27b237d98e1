// The one way the GUI calls the core: same-origin fetch with the session header, JSON in and out,
// every answer checked against a zod schema (the GUI never trusts a shape it did not check), and
// every contract error turned into an ApiError the screens can show in words.
import { z } from 'zod/v3';
import { sessionHeaders } from './session';

const ErrorBody = z.object({
  error: z.object({ type: z.string(), code: z.string().nullish(), message: z.string(), param: z.string().nullish() }),
});

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly type: string,
    readonly code: string | null,
    message: string,
    readonly param: string | null,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

/** Set by platform.ts in the desktop window: signs in again (a fresh code from the shell). */
let renewSession: (() => Promise<boolean>) | null = null;
export function setSessionRenewal(renew: () => Promise<boolean>): void {
  renewSession = renew;
}

async function send(method: Method, path: string, body: unknown): Promise<Response> {
  try {
    return await fetch(path, {
      method,
      credentials: 'omit',
      headers: { accept: 'application/json', ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...sessionHeaders() },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  } catch {
    throw new ApiError(0, 'network_error', 'unreachable', 'Sanad did not answer.', null);
  }
}

export async function api<T>(method: Method, path: string, schema: z.ZodType<T, z.ZodTypeDef, unknown>, body?: unknown): Promise<T> {
  let res = await send(method, path, body);
  // The desktop window's session ended (idle, or Sanad restarted): the shell signs it in again.
  if (res.status === 401 && renewSession !== null && (await renewSession())) res = await send(method, path, body);
  const text = await res.text();
  let json: unknown = null;
  if (text !== '') {
    try {
      json = JSON.parse(text);
    } catch {
      json = null;
    }
  }
  if (!res.ok) {
    const parsed = ErrorBody.safeParse(json);
    if (parsed.success) {
      const e = parsed.data.error;
      throw new ApiError(res.status, e.type, e.code ?? null, e.message, e.param ?? null);
    }
    throw new ApiError(res.status, 'server_error', null, `Sanad answered ${res.status}.`, null);
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    throw new ApiError(res.status, 'bad_response', null, `Sanad's answer to ${method} ${path} was not what this GUI expects.`, null);
  }
  return parsed.data;
}

/** A file the core answers (a download): its bytes and the name it proposes. */
export async function download(path: string): Promise<{ blob: Blob; name: string }> {
  let res = await send('GET', path, undefined);
  if (res.status === 401 && renewSession !== null && (await renewSession())) res = await send('GET', path, undefined);
  if (!res.ok) {
    const parsed = ErrorBody.safeParse(await res.json().catch(() => null));
    if (parsed.success)
      throw new ApiError(res.status, parsed.data.error.type, parsed.data.error.code ?? null, parsed.data.error.message, parsed.data.error.param ?? null);
    throw new ApiError(res.status, 'server_error', null, `Sanad answered ${res.status}.`, null);
  }
  const name = /filename="([^"]+)"/.exec(res.headers.get('content-disposition') ?? '')?.[1] ?? 'download';
  return { blob: await res.blob(), name };
}

/** A list answer of the API: `{object: 'list', data: [...]}` (the wire contract's). */
export { listOf } from '../../../src/contract/list';
