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
  const svc = await serviceAcceptRate(count, 8);
  console.log('accept: background create, 202 after commit (synchronous=FULL)');
  console.log(`  raw better-sqlite3 (3 inserts, 1 txn): ${fmt(raw.perSecond)} /s, p99 ${fmt(raw.p99Ms, 2)} ms`);
  console.log(`  sanad POST /v1/responses (8 clients):  ${fmt(svc.perSecond)} /s, p99 ${fmt(svc.p99Ms, 2)} ms`);
  console.log(`  ratio rate ${fmt(svc.perSecond / raw.perSecond, 3)}, p99 ${fmt(svc.p99Ms / raw.p99Ms, 1)}x`);
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
