// Conversation search under load (issue 53): a real `sanad serve` whose store holds 100,000 items
// in 2,000 conversations, 50 clients searching at once (GET /v1/conversations?q=…, as the GUI's
// Chat list does) while /health/live is asked every 20 ms. The service's event loop is what every
// stream and the GUI share: the goal is p99 <= 20 ms for the health answer under the searches. The
// baseline is the same probe with no search running, in the same run.
import { performance } from 'node:perf_hooks';
import type { StoredItem } from '../src/contract/responses.js';
import { openStore } from '../src/store/open.js';
import { addItems, createConversation } from '../src/tasks/conversations.js';
import { prepareDataDir } from '../test/harness/data-dir.js';
import { startServiceProcess } from '../test/harness/service-process.js';
import { storePath } from '../src/files/data-dir-layout.js';

const WORDS = ['river', 'backup', 'lighthouse', 'garden', 'engine', 'winter', 'piano', 'harbour', 'summit', 'lantern', 'orchard', 'meadow'];

function text(seed: number): string {
  const words: string[] = [];
  for (let i = 0; i < 30; i++) words.push(WORDS[(seed * 7 + i * 13 + (seed >> 3)) % WORDS.length] ?? 'x');
  return `${words.join(' ')} item ${seed}`;
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

export interface SearchBench {
  items: number;
  searches: number;
  searchP50Ms: number;
  idleP99Ms: number;
  loadedP99Ms: number;
  loadedMaxMs: number;
}

async function probe(url: string, ms: number): Promise<number[]> {
  const out: number[] = [];
  const end = performance.now() + ms;
  while (performance.now() < end) {
    const t0 = performance.now();
    const res = await fetch(`${url}/health/live`);
    await res.arrayBuffer();
    out.push(performance.now() - t0);
    await new Promise((r) => setTimeout(r, 20));
  }
  return out;
}

export async function searchBench(conversations: number, perConversation: number, clients: number, seconds: number): Promise<SearchBench> {
  const prepared = await prepareDataDir();
  const db = openStore(storePath(prepared.dataDir));
  db.transaction(() => {
    for (let c = 0; c < conversations; c++) {
      const conv = createConversation(db, { clientId: null, metadata: { title: `Notes ${c}` }, items: [] }, 1_700_000_000 + c);
      const items: StoredItem[] = Array.from({ length: perConversation }, (_, i) => ({
        type: 'message',
        id: `msg_${c}_${i}`,
        status: 'completed',
        role: i % 2 === 0 ? 'user' : 'assistant',
        content: [{ type: i % 2 === 0 ? 'input_text' : 'output_text', text: text(c * perConversation + i) }],
      }));
      addItems(db, conv.id, items, 1_700_000_000 + c);
    }
  })();
  db.close();
  const service = await startServiceProcess(prepared.dataDir, prepared.adminToken);
  const headers = { authorization: `Bearer ${prepared.adminToken}` };
  try {
    const idle = await probe(service.url, seconds * 500);
    let stop = false;
    const searchTimes: number[] = [];
    const searcher = async (k: number): Promise<void> => {
      for (let n = 0; !stop; n++) {
        const q = n % 3 === 0 ? `item ${(k * 131 + n) % (conversations * perConversation)}` : (WORDS[(k + n) % WORDS.length] ?? 'x');
        const t0 = performance.now();
        const res = await fetch(`${service.url}/v1/conversations?q=${encodeURIComponent(q)}&limit=20`, { headers });
        if (!res.ok) throw new Error(`search: ${res.status} ${await res.text()}`);
        await res.arrayBuffer();
        searchTimes.push(performance.now() - t0);
      }
    };
    const running = Array.from({ length: clients }, (_, k) => searcher(k));
    const loaded = await probe(service.url, seconds * 1000);
    stop = true;
    await Promise.all(running);
    return {
      items: conversations * perConversation,
      searches: searchTimes.length,
      searchP50Ms: percentile(searchTimes, 50),
      idleP99Ms: percentile(idle, 99),
      loadedP99Ms: percentile(loaded, 99),
      loadedMaxMs: Math.max(...loaded),
    };
  } finally {
    await service.stop();
    prepared.cleanup();
  }
}
