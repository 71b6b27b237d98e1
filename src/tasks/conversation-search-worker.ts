// Worker thread body of conversation-search.ts: a read-only connection to the store that answers
// conversation searches one after another. A search can read much of the index (a word in every
// message); here it holds this thread, never the service's event loop.
import Database from 'better-sqlite3';
import { parentPort, workerData } from 'node:worker_threads';
import { listConversations, type ConversationListQuery } from './conversations.js';

if (!parentPort) throw new Error('conversation-search-worker runs as a worker thread.');
const port = parentPort;
const file: unknown = workerData;
if (typeof file !== 'string') throw new Error('conversation-search-worker: started without the store file');
const db = new Database(file, { readonly: true, fileMustExist: true });
db.pragma('trusted_schema = OFF');

function isQuery(value: unknown): value is { id: number; query: ConversationListQuery } {
  if (typeof value !== 'object' || value === null || !('id' in value) || !('query' in value)) return false;
  const q = value.query;
  return typeof value.id === 'number' && typeof q === 'object' && q !== null && 'limit' in q && typeof q.limit === 'number';
}

port.on('message', (message: unknown) => {
  if (!isQuery(message)) return;
  try {
    port.postMessage({ id: message.id, ok: true, page: listConversations(db, message.query) });
  } catch (err) {
    port.postMessage({ id: message.id, ok: false, error: err instanceof Error ? err.message : String(err) });
  }
});
