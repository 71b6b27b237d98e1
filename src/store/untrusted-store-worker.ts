// Worker thread body of untrusted-store.ts: looks at a SQLite file that came from a backup, before
// any of Sanad's own code queries it. Runs off the main thread so that even a file crafted to make
// SQLite work forever cannot stop the service from answering; the parent gives it a time limit.
//
// The order matters. Opening a file and reading `sqlite_schema` only parses its DDL, never runs it;
// a view, a trigger or a virtual table runs only when something queries it. So the schema is
// compared first, with `trusted_schema` off, and only a file whose schema is exactly the DDL of a
// known Sanad store version (nothing added, nothing changed) is then checked further, when asked.
import Database from 'better-sqlite3';
import { parentPort } from 'node:worker_threads';
import { workerQuestion } from '../process/worker-question.js';
import { MIGRATIONS } from './migrations/index.js';
import { migrate } from './migrate.js';
import type { AdmissionRequest, AdmissionVerdict, SchemaObject } from './untrusted-store-verdict.js';
import { compareSchemas, schemaOf } from './untrusted-store-verdict.js';

if (!parentPort) throw new Error('untrusted-store-worker runs as a worker thread.');
const port = parentPort;

/** The DDL a Sanad store of `version` has: the migrations up to it, run on an empty in-memory store. */
function expectedSchema(version: number): SchemaObject[] {
  const db = new Database(':memory:');
  try {
    migrate(db, ':memory:', { migrations: MIGRATIONS.slice(0, version) });
    return schemaOf(db);
  } finally {
    db.close();
  }
}

function message(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

function integrity(db: Database.Database): string | null {
  const rows = db
    .prepare<[], { integrity_check: string }>('PRAGMA integrity_check')
    .all()
    .map((r) => r.integrity_check);
  return rows.length === 1 && rows[0] === 'ok' ? null : `integrity_check: ${rows.slice(0, 3).join('; ')}`;
}

function tableCount(schema: SchemaObject[]): number {
  return schema.filter((o) => o.type === 'table' && !o.name.startsWith('sqlite_')).length;
}

function look(request: AdmissionRequest): AdmissionVerdict {
  let db: Database.Database;
  try {
    db = new Database(request.path, { readonly: true, fileMustExist: true });
  } catch (err) {
    return { ok: false, kind: 'damaged', problem: `it does not open as SQLite (${message(err)})` };
  }
  try {
    // Functions and virtual tables named in the schema are refused to run, whatever comes next.
    db.pragma('trusted_schema = OFF');
    const schema = schemaOf(db);
    if (request.expect === 'any') {
      const problem = request.integrity ? integrity(db) : null;
      return problem ? { ok: false, kind: 'damaged', problem } : { ok: true, version: 0, tables: tableCount(schema) };
    }
    const raw = db.pragma('user_version', { simple: true });
    const version = typeof raw === 'number' ? raw : 0;
    const known = MIGRATIONS.length;
    if (version > known)
      return { ok: false, kind: 'too_new', version, problem: `it was written by a newer Sanad (store version ${version}; this Sanad knows up to ${known})` };
    // An empty file runs nothing; what its emptiness means (damage, or a source with no tables)
    // is for the caller, who knows what the manifest counted.
    if (version === 0 && schema.length === 0) return { ok: true, version: 0, tables: 0 };
    if (version < 1) return { ok: false, kind: 'not_sanad', problem: 'it has no Sanad store version' };
    const difference = compareSchemas(schema, expectedSchema(version));
    if (difference) return { ok: false, kind: 'not_sanad', problem: `its schema is not that of a Sanad store (version ${version}): ${difference}` };
    const problem = request.integrity ? integrity(db) : null;
    if (problem) return { ok: false, kind: 'damaged', problem };
    return { ok: true, version, tables: tableCount(schema) };
  } catch (err) {
    // "file is not a database", "malformed database schema": SQLite says so as an exception.
    return { ok: false, kind: 'damaged', problem: message(err) };
  } finally {
    db.close();
  }
}

const request: unknown = await workerQuestion();
if (
  typeof request === 'object' &&
  request !== null &&
  'path' in request &&
  typeof request.path === 'string' &&
  'expect' in request &&
  (request.expect === 'sanad' || request.expect === 'any')
) {
  port.postMessage(look({ path: request.path, expect: request.expect, integrity: 'integrity' in request && request.integrity === true }));
} else {
  port.postMessage({ ok: false, kind: 'damaged', problem: 'the worker was started without a file to look at' } satisfies AdmissionVerdict);
}
