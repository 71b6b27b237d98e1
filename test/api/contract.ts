// Checks shared by the API tests: the contract's error shape, clients with chosen scopes, and
// reading what the store holds.
import assert from 'node:assert/strict';
import type { Db } from '../../src/store/open.js';
import { field, str, waitFor, type Api, type ApiResponse } from '../harness/api.js';

/** Asserts the contract's error shape: exactly {type, code, message, param}, no stack, JSON. */
export function assertError(res: ApiResponse, status: number, code: string, param?: string | null): void {
  const where = `${status} ${code}, got ${res.status} ${res.text.slice(0, 300)}`;
  assert.equal(res.status, status, where);
  assert.match(res.headers.get('content-type') ?? '', /^application\/json/, where);
  const error = field(res.body, 'error');
  assert.ok(error !== null && typeof error === 'object', where);
  assert.deepEqual(Object.keys(error).sort(), ['code', 'message', 'param', 'type'], where);
  assert.equal(str(res.body, 'error', 'code'), code, where);
  assert.ok(str(res.body, 'error', 'type').length > 0, where);
  assert.ok(str(res.body, 'error', 'message').length > 0, where);
  if (param !== undefined) assert.equal(field(res.body, 'error', 'param'), param, where);
  assertNoStack(res);
}

export function assertNoStack(res: ApiResponse): void {
  assert.ok(!res.text.includes('    at '), `a stack trace leaked: ${res.text.slice(0, 500)}`);
}

export interface MadeClient {
  client_id: string;
  token: string;
  scopes: string[];
}

/** A new client through the admin route; `admin` must carry an admin token. */
export async function makeClient(admin: Api, scopes: string[], name = 'test-client'): Promise<MadeClient> {
  const res = await admin.post('/admin/clients', { name, scopes });
  assert.equal(res.status, 201, res.text);
  const scopesOut = field(res.body, 'scopes');
  assert.ok(Array.isArray(scopesOut));
  return { client_id: str(res.body, 'client_id'), token: str(res.body, 'token'), scopes: scopesOut.map(String) };
}

export function countRows(db: Db, table: 'tasks' | 'responses' | 'task_events' | 'clients' | 'idempotency_keys' | 'models'): number {
  return db.prepare<[], { n: number }>(`SELECT COUNT(*) AS n FROM ${table}`).get()?.n ?? -1;
}

export function taskStatus(db: Db, taskId: string): string | undefined {
  return db.prepare<[string], { status: string }>('SELECT status FROM tasks WHERE id = ?').get(taskId)?.status;
}

/** Waits until the stored task is in one of `statuses`. */
export function waitForStatus(db: Db, taskId: string, statuses: string[], timeoutMs = 60_000): Promise<string> {
  return waitFor(
    () => {
      const s = taskStatus(db, taskId);
      return s !== undefined && statuses.includes(s) ? s : undefined;
    },
    timeoutMs,
    `task ${taskId} to be ${statuses.join('/')}`,
  );
}

/** Starts a background response that runs for a long while (the tiny model never stops early). */
export async function startLongTask(api: Api, maxOutputTokens = 4000): Promise<{ responseId: string; taskId: string }> {
  const res = await api.post('/v1/responses', { model: 'tiny', input: 'go on', max_output_tokens: maxOutputTokens, background: true });
  assert.equal(res.status, 202, res.text);
  return { responseId: str(res.body, 'id'), taskId: str(res.body, 'task_id') };
}
