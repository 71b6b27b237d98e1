// Start-up and the task list's first page must not read whole tables: with a million task events
// a scan is seconds. Every statement Sanad prepares while starting (recovery, queued counts,
// sweeps, health) and while answering the first page of GET /v1/tasks is recorded, and SQLite's
// own query plan for each one on that store must use an index (or stop early at a LIMIT) for the
// tables that grow: tasks, task_events, responses.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import Database from 'better-sqlite3';
import { startTestAppliance } from '../harness/appliance.js';
import { storePath } from '../../src/files/data-dir-layout.js';

const GROWING = /\b(tasks|task_events|responses)\b/;

/** The statements prepared while `fn` runs, on any connection. */
async function preparedDuring(fn: () => Promise<void>): Promise<Set<string>> {
  const seen = new Set<string>();
  // The original is kept only to be called with its own `this` (.call below) and put back.
  // eslint-disable-next-line @typescript-eslint/unbound-method
  const original = Database.prototype.prepare;
  // A wrapper, not a stand-in: every statement is still prepared by better-sqlite3 itself.
  // (Reflect.set: prepare's generic signature cannot be written as a plain function's type.)
  Reflect.set(Database.prototype, 'prepare', function prepare(this: Database.Database, source: string) {
    seen.add(source);
    return original.call(this, source);
  });
  try {
    await fn();
  } finally {
    Reflect.set(Database.prototype, 'prepare', original);
  }
  return seen;
}

/** Plan rows that read a growing table from end to end with nothing to stop them early. */
function fullScans(db: Database.Database, sql: string): string[] {
  if (!/^\s*(SELECT|UPDATE|DELETE|WITH)/i.test(sql) || !GROWING.test(sql)) return [];
  const params = (sql.match(/\?/g) ?? []).map(() => null);
  const plan = db.prepare<unknown[], { detail: string }>(`EXPLAIN QUERY PLAN ${sql}`).all(...params);
  const limited = /\bLIMIT\b/i.test(sql);
  const scans = plan.map((r) => r.detail).filter((d) => /^SCAN (tasks|task_events|responses)\b/.test(d) && !(limited && / USING (COVERING )?INDEX /.test(d)));
  // An age cutoff searched by status alone walks every finished task: the range must be in the search.
  const ranged = /updated_at\s*</.test(sql) && !plan.some((r) => /updated_at<\?/.test(r.detail));
  return ranged ? [...scans, `the updated_at cutoff is not part of the index search: ${plan.map((r) => r.detail).join('; ')}`] : scans;
}

test('start-up and the first page of the task list read the growing tables through indexes only', async () => {
  let dataDir = '';
  const seen = await preparedDuring(async () => {
    const app = await startTestAppliance();
    dataDir = app.dataDir;
    try {
      const page = await app.api.get('/v1/tasks?limit=20');
      assert.equal(page.status, 200, page.text);
    } finally {
      await app.close();
    }
  });
  const touching = [...seen].filter((s) => GROWING.test(s));
  assert.ok(touching.length >= 3, `start-up prepared ${touching.length} statements on the growing tables: ${touching.join(' | ')}`);
  const db = new Database(storePath(dataDir), { readonly: true, fileMustExist: true });
  try {
    const offenders = touching.map((sql) => ({ sql: sql.replace(/\s+/g, ' ').trim(), scans: fullScans(db, sql) })).filter((o) => o.scans.length > 0);
    assert.deepEqual(offenders, [], 'statements that scan a whole growing table at start-up');
  } finally {
    db.close();
  }
});
