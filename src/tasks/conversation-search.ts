// Conversation search off the event loop: the words are found through the store's trigram index
// (migration 26), by a worker thread with its own read-only connection, so 50 people searching at
// once do not hold every stream and the GUI. One worker, searches in turn; a search that runs past
// its time limit is answered with a sentence and ends that worker, and the searches waiting behind
// it are asked again of a new one.
import { Worker } from 'node:worker_threads';
import type { ConversationRow } from './conversations.js';
import type { ConversationListQuery } from './conversations.js';

const WORKER = new URL('./conversation-search-worker.js', import.meta.url);
export const SEARCH_TIME_LIMIT_MS = 10_000;

export type SearchPage = { data: ConversationRow[]; has_more: boolean } | { unknownCursor: true };

export class SearchTooSlow extends Error {
  override name = 'SearchTooSlow';
}

interface Waiting {
  query: ConversationListQuery;
  resolve: (page: SearchPage) => void;
  reject: (err: Error) => void;
  timer: NodeJS.Timeout;
}

function isAnswer(msg: unknown): msg is { id: number; ok: true; page: SearchPage } | { id: number; ok: false; error: string } {
  return typeof msg === 'object' && msg !== null && 'id' in msg && typeof msg.id === 'number' && 'ok' in msg;
}

function isPage(value: unknown): value is SearchPage {
  return typeof value === 'object' && value !== null && ('unknownCursor' in value || ('data' in value && Array.isArray(value.data)));
}

export class ConversationSearch {
  private worker: Worker | null = null;
  private readonly waiting = new Map<number, Waiting>();
  private nextId = 1;
  private closed = false;

  constructor(private readonly storeFile: string) {}

  search(query: ConversationListQuery): Promise<SearchPage> {
    if (this.closed) return Promise.reject(new Error('the service is stopping'));
    const worker = this.started();
    const id = this.nextId++;
    return new Promise<SearchPage>((resolve, reject) => {
      const timer = setTimeout(() => this.overdue(id), SEARCH_TIME_LIMIT_MS);
      this.waiting.set(id, { query, resolve, reject, timer });
      worker.postMessage({ id, query });
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    const worker = this.worker;
    this.worker = null;
    this.failAll(new Error('the service is stopping'));
    await worker?.terminate();
  }

  private started(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(WORKER, { workerData: this.storeFile });
    worker.unref();
    worker.on('message', (msg: unknown) => {
      if (!isAnswer(msg)) return;
      const w = this.waiting.get(msg.id);
      if (!w) return;
      this.waiting.delete(msg.id);
      clearTimeout(w.timer);
      if (msg.ok && isPage(msg.page)) w.resolve(msg.page);
      else w.reject(new Error(msg.ok ? 'the search answered in a wrong shape' : msg.error));
    });
    worker.once('error', (err: unknown) => this.restart(err instanceof Error ? err : new Error(String(err))));
    worker.once('exit', () => {
      if (this.worker === worker) this.restart(new Error('the search worker ended'));
    });
    this.worker = worker;
    return worker;
  }

  /** A search past its limit: it alone fails; the worker, stuck inside SQLite, is ended and the rest go to a new one. */
  private overdue(id: number): void {
    const late = this.waiting.get(id);
    if (!late) return;
    this.waiting.delete(id);
    late.reject(new SearchTooSlow(`The search for "${late.query.q ?? ''}" took longer than ${SEARCH_TIME_LIMIT_MS / 1000} s; use more or longer words.`));
    const stuck = this.worker;
    this.worker = null;
    void stuck?.terminate().catch(() => undefined);
    if (this.waiting.size === 0 || this.closed) return;
    const fresh = this.started();
    for (const [waitingId, w] of this.waiting) fresh.postMessage({ id: waitingId, query: w.query });
  }

  private restart(why: Error): void {
    const worker = this.worker;
    this.worker = null;
    this.failAll(why);
    void worker?.terminate().catch(() => undefined);
  }

  private failAll(why: Error): void {
    for (const [id, w] of this.waiting) {
      clearTimeout(w.timer);
      w.reject(why);
      this.waiting.delete(id);
    }
  }
}
