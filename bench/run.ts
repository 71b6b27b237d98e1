// `npm run bench`: each Sanad number next to a baseline measured in the same run, as a ratio.
import { rawInsertRate, serviceAcceptRate } from './accept.js';
import { fmt } from './stats.js';
import { rawEngineTokensPerSecond, serviceTokensPerSecond } from './streaming.js';

process.env.SANAD_THREADS ??= '1';
process.env.SANAD_GPU ??= 'off';

const only = process.argv.slice(2);
const want = (name: string): boolean => only.length === 0 || only.includes(name);

if (want('accept')) {
  const count = 600;
  const raw = rawInsertRate(count);
  const queued = await serviceAcceptRate(count, 8, true);
  const running = await serviceAcceptRate(count, 8, false);
  console.log(`accept: ${count} background creates, 202 after commit (synchronous=FULL), 8 concurrent clients`);
  console.log(`  raw better-sqlite3 (same 3 inserts, 1 txn each): ${fmt(raw.perSecond)} /s, p99 ${fmt(raw.p99Ms, 2)} ms`);
  for (const [label, svc] of [['tasks queue behind a busy engine', queued], ['each task also runs (1 token)  ', running]] as const) {
    console.log(`  sanad, ${label}: ${fmt(svc.perSecond)} /s, p99 ${fmt(svc.p99Ms, 2)} ms` +
      ` -> ratio rate ${fmt(svc.perSecond / raw.perSecond, 3)}, p99 ${fmt(svc.p99Ms / raw.p99Ms, 1)}x`);
  }
  const floor = queued.httpFloorPerSecond ?? NaN;
  console.log(`  for scale, GET /health/live through the same client: ${fmt(floor)} /s` +
    ` (accepts reach ${fmt(queued.perSecond / floor, 3)} of the bare HTTP rate)`);
}

if (want('streaming')) {
  const tokens = 2000;
  const runs = 5;
  const raw = await rawEngineTokensPerSecond(tokens, runs);
  const svc = await serviceTokensPerSecond(tokens, runs);
  console.log(`streaming: ${tokens} tokens, tiny model, 1 thread, median of ${runs}`);
  console.log(`  raw node-llama-cpp:                     ${fmt(raw)} tok/s`);
  console.log(`  sanad stream: true, every event stored: ${fmt(svc.rate)} tok/s (${svc.events} SSE events)`);
  console.log(`  ratio ${fmt(svc.rate / raw, 3)} (target >= 0.9)`);
}
process.exit(0);
