// `npm run bench`: each Sanad number next to a baseline measured in the same run, as a ratio.
import { rawInsertRate, serviceAcceptRate } from './accept.js';
import { backupBench } from './backup.js';
import { jobsBench } from './jobs.js';
import { restoreBench } from './restore.js';
import { restoreCliBench } from './restore-cli.js';
import { loopDelayBench } from './loop-delay.js';
import { historyBench } from './history.js';
import { loadBench } from './load.js';
import { lanBench } from './lan.js';
import { contentionBench } from './contention.js';
import { chatOpenBench } from './chat-open.js';
import { pullBench } from './pull.js';
import { conversationBench } from './conversations.js';
import { firstScreenBench } from './first-screen.js';
import { storeCheckBench } from './store-check.js';
import { securityBench } from './security.js';
import { scaleBench } from './scale.js';
import { cliStartBench } from './cli-start.js';
import { packedFiles } from '../build/packed-files.js';
import { fmt } from './stats.js';
import { streamingBench } from './streaming.js';
import { SLOW_FLUSH_US, slowFlushEnv } from './slow-flush.js';
import { streamsBench, TEXT_WINDOW_MS } from './streams.js';
import { structuredBench } from './structured.js';
import { engineSpeedBench } from './engine-speed.js';
import { thinkingBench } from './thinking.js';
import { doorsBench } from './doors.js';
import { searchBench } from './search.js';
import { midSizeModelPath, midSizeThinkerPath, rerankerModelPath } from '../test/fixtures/tiny-model.js';

process.env.SANAD_THREADS ??= '1';
process.env.SANAD_GPU ??= 'off';

const args = process.argv.slice(2);
const json = args.includes('--json');
const only = args.filter((a) => a !== '--json');
const want = (name: string): boolean => only.length === 0 || only.includes(name);

/** Every line as Sanad / baseline / ratio, for `--json` (printed last, one object). */
interface Measured {
  path: string;
  sanad: number;
  baseline: number;
  unit: string;
  ratio: number;
  goal?: string;
}
const summary: Measured[] = [];
function record(path: string, sanad: number, baseline: number, unit: string, goal?: string): void {
  summary.push({ path, sanad, baseline, unit, ratio: sanad / baseline, ...(goal ? { goal } : {}) });
}

if (want('accept')) {
  const count = 600;
  const raw = rawInsertRate(count);
  const queued = await serviceAcceptRate(count, 8, true);
  const running = await serviceAcceptRate(count, 8, false);
  console.log(`accept: ${count} background creates, 202 after the commit's fsync, 8 concurrent clients`);
  console.log(`  raw better-sqlite3 (same 3 inserts, 1 txn each): ${fmt(raw.perSecond)} /s, p99 ${fmt(raw.p99Ms, 2)} ms`);
  for (const [label, svc] of [
    ['tasks queue behind a busy engine', queued],
    ['each task also runs (1 token)  ', running],
  ] as const) {
    console.log(
      `  sanad, ${label}: ${fmt(svc.perSecond)} /s, p99 ${fmt(svc.p99Ms, 2)} ms` +
        ` -> ratio rate ${fmt(svc.perSecond / raw.perSecond, 3)}, p99 ${fmt(svc.p99Ms / raw.p99Ms, 1)}x`,
    );
  }
  const floor = queued.httpFloorPerSecond ?? NaN;
  console.log(
    `  for scale, GET /health/live through the same client: ${fmt(floor)} /s` + ` (accepts reach ${fmt(queued.perSecond / floor, 3)} of the bare HTTP rate)`,
  );
}

if (want('cli-start')) {
  const r = cliStartBench();
  console.log(`cli-start: whole processes, medians of ${r.rounds} alternating runs`);
  console.log(
    `  node -e 0: ${fmt(r.nodeMs)} ms; sanad --version: ${fmt(r.versionMs)} ms (+${fmt(r.versionMs - r.nodeMs)}); sanad help: ${fmt(r.helpMs)} ms (+${fmt(r.helpMs - r.nodeMs)}); sanad doctor --help: ${fmt(r.doctorHelpMs)} ms (+${fmt(r.doctorHelpMs - r.nodeMs)}) (goal: at most +100 ms)`,
  );
  record('sanad --version vs node -e 0', r.versionMs, r.nodeMs, 'ms', '<= node + 100 ms');
  record('sanad help vs node -e 0', r.helpMs, r.nodeMs, 'ms', '<= node + 100 ms');
}

if (want('packed-size')) {
  // The app's own files per platform, from build/electron-builder.yml (see build/packed-files.ts); the
  // baseline is the same list with no platform filtering (what the config packed before).
  const root = new URL('../../', import.meta.url).pathname;
  console.log('packed-size: the files electron-builder packs into the app (without Electron itself)');
  for (const [os, arch] of [
    ['linux', 'x64'],
    ['linux', 'arm64'],
    ['mac', 'arm64'],
    ['win', 'x64'],
  ] as const) {
    const r = packedFiles(root, os, arch);
    const llama = r.files.filter((f) => f.startsWith('node_modules/@node-llama-cpp/')).length;
    console.log(
      `  ${os} ${arch}: ${fmt(r.bytes / 1048576)} MiB, ${r.files.length} files (${llama} of them llama.cpp binaries${llama === 0 ? `: ${os}'s packages install only on ${os}` : ''})`,
    );
  }
}

if (want('load')) {
  const { sanad, ceiling } = await loadBench(10, 50);
  console.log('load: autocannon -c 50 for 10 s, POST /v1/responses {background: true}, tasks queue behind a busy engine');
  console.log(
    `  a bare Fastify route answering 202 (own process): ${fmt(ceiling.perSecond)} /s, p50 ${fmt(ceiling.p50Ms, 1)} ms, p99 ${fmt(ceiling.p99Ms, 1)} ms`,
  );
  console.log(
    `  sanad (202 after the commit):                     ${fmt(sanad.perSecond)} /s, p50 ${fmt(sanad.p50Ms, 1)} ms, p99 ${fmt(sanad.p99Ms, 1)} ms` +
      ` -> ratio ${fmt(sanad.perSecond / ceiling.perSecond, 3)} (non-2xx ${sanad.non2xx}, errors ${sanad.errors})`,
  );
  record('background accepts, autocannon -c 50 (rate)', sanad.perSecond, ceiling.perSecond, 'req/s', '>= 0.5');
  record('background accepts, autocannon -c 50 (p99)', sanad.p99Ms, ceiling.p99Ms, 'ms', 'sanad p99 <= 10 ms');
}

if (want('lan')) {
  const r = await lanBench(10, 1000);
  console.log(
    'lan: a paired device on the network listener (TLS 1.3, pinned certificate) against the main listener (plain HTTP), both over loopback, same token, undici',
  );
  console.log(`  pairing (fetch the certificate, redeem the code over TLS): ${fmt(r.pairMs, 1)} ms`);
  console.log(
    `  GET /v1/models kept alive, 4 at a time: main ${fmt(r.reads.main)} /s, network ${fmt(r.reads.lan)} /s -> ratio ${fmt(r.reads.lan / r.reads.main, 3)}`,
  );
  console.log(
    `  a fresh connection per GET: main ${fmt(r.freshMs.main, 2)} ms, network ${fmt(r.freshMs.lan, 2)} ms (the TLS handshake) -> +${fmt(r.freshMs.lan - r.freshMs.main, 2)} ms`,
  );
  console.log(
    `  streaming ${1000} tokens, median of ${r.rounds} alternating: main ${fmt(r.streaming.main)} tok/s, network ${fmt(r.streaming.lan)} tok/s -> ratio ${fmt(r.streaming.lan / r.streaming.main, 3)} of the medians, ${fmt(r.streaming.pairedRatio, 3)} the median of each round's own (goal >= 0.95)`,
  );
  record('network listener: kept-alive reads vs main listener', r.reads.lan, r.reads.main, 'req/s');
  record('network listener: fresh-connection GET vs main listener', r.freshMs.lan, r.freshMs.main, 'ms');
  record('network listener: streaming vs main listener', r.streaming.lan, r.streaming.main, 'tok/s', '>= 0.95');
}

if (want('conversations')) {
  const r = await conversationBench(20, 40);
  console.log(
    `conversations: a turn continued with previous_response_id over a ${r.turns}-turn conversation vs the same request with the history inline, end to end, ${r.rounds} alternating rounds`,
  );
  console.log(
    `  inline history: ${fmt(r.inlineMs, 2)} ms; previous_response_id: ${fmt(r.previousMs, 2)} ms -> ratio ${fmt(r.previousMs / r.inlineMs, 3)} of the medians, ${fmt(r.pairedRatio, 3)} the median of each round's own (goal <= 1.1); prompt tokens ${r.inputTokens.previous} vs ${r.inputTokens.inline}`,
  );
  record('previous_response_id (20 turns) vs history inline', r.previousMs, r.inlineMs, 'ms', '<= 1.1');
}

if (want('chat-open')) {
  const r = await chatOpenBench(500, 7);
  console.log(`chat-open: a ${r.messages}-message conversation opened (the conversation and its newest 30 messages), median of the runs`);
  console.log(`  raw SQLite in-process, the same rows: ${fmt(r.rawMs, 2)} ms; the API over HTTP: ${fmt(r.apiMs, 2)} ms -> ratio ${fmt(r.apiMs / r.rawMs, 1)}x`);
  console.log(
    `  the GUI in Chromium, from #/chat/<id> to 30 messages drawn: ${fmt(r.guiMs, 0)} ms (goal < 300 ms); all ${r.messages} loaded and scrolled through, longest frame ${fmt(r.scrollFrameMs, 0)} ms`,
  );
  record('chat: 500-message conversation opened (API vs raw SQLite)', r.apiMs, r.rawMs, 'ms');
  record('chat: 500-message conversation drawn in the GUI', r.guiMs, r.apiMs, 'ms', 'sanad < 300 ms');
}

if (want('pull')) {
  // Loopback (curl reaches ~500 MB/s, where Sanad's fixed costs show), and a 50 MB/s link (a fast
  // home connection, shared by all of a download's connections) where the hub's speed decides.
  // The link run uses a 1.5 GiB file (a 2-3B model at Q4): what people pull; once, as it takes ~30 s.
  for (const [label, link, mib, runs] of [
    ['loopback', 0, 512, 3],
    ['a 50 MB/s link', 50e6, 1536, 1],
  ] as const) {
    const r = await pullBench(mib, runs, link);
    const mb = r.bytes / 1e6;
    console.log(`pull over ${label}: a ${mb.toFixed(0)} MB GGUF from a local server speaking the hub's protocol, median of ${r.runs}`);
    console.log(`  curl -L, download only: ${fmt(r.curlMs, 0)} ms (${fmt(mb / (r.curlMs / 1000), 0)} MB/s)`);
    console.log(
      `  sanad models pull, end to end (plan, download, sha256, register): ${fmt(r.sanadMs, 0)} ms (${fmt(mb / (r.sanadMs / 1000), 0)} MB/s) -> throughput ratio ${fmt(r.curlMs / r.sanadMs, 2)} (goal >= 0.9)`,
    );
    console.log(
      `  verification: sanad's sha256 (worker) ${fmt(r.verifyMsPerGiB, 0)} ms/GiB; sha256sum ${fmt(r.sha256sumMsPerGiB, 0)} ms/GiB -> ratio ${fmt(r.verifyMsPerGiB / r.sha256sumMsPerGiB, 2)}`,
    );
    record(`pull over ${label}: end to end vs curl (time)`, r.sanadMs, r.curlMs, 'ms', 'curl/sanad >= 0.9');
    if (link === 0) record('pull: sha256 verification per GiB vs sha256sum', r.verifyMsPerGiB, r.sha256sumMsPerGiB, 'ms/GiB');
  }
}

if (want('contention')) {
  const r = await contentionBench(1024, 1500);
  console.log(`contention: streamed generations (1500 tokens, tiny model) while the service backs up a 1 GiB model (restic at low priority)`);
  console.log(
    `  nothing else running: ${fmt(r.idle)} tok/s; during the backup (${r.duringBackup} generations inside its ${fmt(r.backupMs / 1000, 1)} s): ${fmt(r.during)} tok/s -> ratio ${fmt(r.during / r.idle, 3)} (goal >= 0.9)`,
  );
  record('tokens/s during a backup vs idle', r.during, r.idle, 'tok/s', '>= 0.9');
}

if (want('first-screen')) {
  const r = await firstScreenBench(5);
  console.log(`first screen: headless Chromium, signed in, reload of the Overview, median of ${r.runs}`);
  console.log(`  the login page (static HTML, no data) loaded: ${fmt(r.loginPageMs, 0)} ms`);
  console.log(
    `  navigation start to the Overview's verdict drawn from data: ${fmt(r.drawnMs, 0)} ms (goal < 1000 ms) -> ratio ${fmt(r.drawnMs / r.loginPageMs, 2)}x the static page`,
  );
  record('GUI first screen (Overview drawn)', r.drawnMs, r.loginPageMs, 'ms', 'sanad < 1000 ms');
}

if (want('streaming')) {
  const tokens = 2000;
  const r = await streamingBench(tokens, 6);
  console.log(`streaming: ${tokens} tokens, tiny model, 1 thread, median of ${r.runs}, raw and Sanad alternating round by round`);
  console.log(`  raw node-llama-cpp:                     ${fmt(r.raw.rate)} tok/s, first token after ${fmt(r.raw.ttftMs, 1)} ms`);
  console.log(
    `  sanad stream: true, every event stored: ${fmt(r.sanad.rate)} tok/s (${r.sanad.events} SSE events), first delta after ${fmt(r.sanad.ttftMs, 1)} ms (request sent to frame read)`,
  );
  console.log(
    `  ratio ${fmt(r.sanad.rate / r.raw.rate, 3)} of the medians, ${fmt(r.pairedRatio, 3)} the median of each round's own (goal >= 0.95); time to first token raw + ${fmt(r.sanad.ttftMs - r.raw.ttftMs, 1)} ms (goal <= raw + 5 ms)`,
  );
  record('streaming, every event stored', r.sanad.rate, r.raw.rate, 'tok/s', '>= 0.95');
  record('time to first token, streaming', r.sanad.ttftMs, r.raw.ttftMs, 'ms', '<= raw + 5 ms');
}
if (want('slow-flush')) {
  const env = slowFlushEnv();
  if (!env) console.log('slow-flush: skipped (no C compiler, cc, to build the slow-disk shim)');
  else {
    const tokens = 2000;
    const r = await streamingBench(tokens, 6, env);
    console.log(`slow-flush: the same streaming with every fsync of sanad serve ${SLOW_FLUSH_US / 1000} ms slower (bench/slow-flush/slow-fsync.c)`);
    console.log(
      `  raw node-llama-cpp: ${fmt(r.raw.rate)} tok/s, first token after ${fmt(r.raw.ttftMs, 1)} ms; sanad: ${fmt(r.sanad.rate)} tok/s, first delta after ${fmt(r.sanad.ttftMs, 1)} ms`,
    );
    console.log(
      `  ratio ${fmt(r.sanad.rate / r.raw.rate, 3)} of the medians, ${fmt(r.pairedRatio, 3)} the median of each round's own (goal >= 0.95); time to first token raw + ${fmt(r.sanad.ttftMs - r.raw.ttftMs, 1)} ms`,
    );
    record('streaming on a disk whose flush takes 5 ms', r.sanad.rate, r.raw.rate, 'tok/s', '>= 0.95');
    record('time to first token on that disk', r.sanad.ttftMs, r.raw.ttftMs, 'ms', '<= raw + 5 ms');
  }
}
if (want('streams')) {
  const r = await streamsBench(20, 300, 512);
  console.log(
    `streams: 20 streamed generations at once (16 run, 4 wait), 300 tokens each; text frames as the client reads them (goal: beyond the ${TEXT_WINDOW_MS} ms text window, max <= 100 ms, p99 <= 20 ms)`,
  );
  for (const [name, g] of [
    ['nothing else running', r.quiet],
    ['while backing up a 512 MiB model', r.duringBackup],
  ] as const) {
    console.log(
      `  ${name}: ${g.gaps} gaps, max ${fmt(g.maxMs, 1)} ms, p99 ${fmt(g.p99Ms, 1)} ms (beyond the window: max ${fmt(Math.max(0, g.maxMs - TEXT_WINDOW_MS), 1)}, p99 ${fmt(Math.max(0, g.p99Ms - TEXT_WINDOW_MS), 1)})`,
    );
  }
  if (!r.backupStillRan) console.log('  (the backup had ended before the last stream did: use a bigger model for a fuller overlap)');
  record('largest gap of 20 live streams during a backup', r.duringBackup.maxMs, TEXT_WINDOW_MS, 'ms', 'window + 100 ms');
  record('p99 gap of 20 live streams during a backup', r.duringBackup.p99Ms, TEXT_WINDOW_MS, 'ms', 'window + 20 ms');
}
if (want('doors')) {
  const r = await doorsBench(await midSizeModelPath(), await rerankerModelPath(), 100, 4);
  console.log(`doors: embeddings, Anthropic Messages and rerank, mid-size model (embedding 1024, 8 layers, ~413 MB), 1 thread, ${r.rounds} alternating rounds`);
  console.log(
    `  embeddings, a batch of 64 short texts: raw node-llama-cpp ${fmt(r.embeddings.raw)} /s, sanad POST /v1/embeddings ${fmt(r.embeddings.sanad)} /s -> ratio ${fmt(r.embeddings.sanad / r.embeddings.raw, 3)} of the medians, ${fmt(r.embeddings.pairedRatio, 3)} paired (goal >= 0.9)`,
  );
  console.log(
    `  a streamed message, ${r.tokens} tokens: raw ${fmt(r.messages.raw)} tok/s, sanad POST /v1/messages ${fmt(r.messages.sanad)} tok/s -> ratio ${fmt(r.messages.sanad / r.messages.raw, 3)} of the medians, ${fmt(r.messages.pairedRatio, 3)} paired (goal >= 0.95)`,
  );
  record('embeddings/s, a batch of 64, vs raw, mid-size', r.embeddings.sanad, r.embeddings.raw, '/s', '>= 0.9');
  console.log(
    `  rerank, 64 documents on the generated reranker: raw node-llama-cpp ${fmt(r.rerank.raw)} /s, sanad POST /v1/rerank ${fmt(r.rerank.sanad)} /s -> ratio ${fmt(r.rerank.sanad / r.rerank.raw, 3)} of the medians, ${fmt(r.rerank.pairedRatio, 3)} paired (goal >= 0.9)`,
  );
  record('Messages stream tok/s vs raw, mid-size', r.messages.sanad, r.messages.raw, 'tok/s', '>= 0.95');
  record('rerank documents/s, 64 on the generated reranker, vs raw', r.rerank.sanad, r.rerank.raw, '/s', '>= 0.9');
}

if (want('search')) {
  const r = await searchBench(2000, 50, 50, 10);
  console.log(
    `search: conversation search in a real sanad serve, ${r.items} items, 50 clients searching at once for 10 s (${r.searches} searches, median ${fmt(r.searchP50Ms, 1)} ms)`,
  );
  console.log(
    `  /health/live every 20 ms: idle p99 ${fmt(r.idleP99Ms, 1)} ms; under the searches p99 ${fmt(r.loadedP99Ms, 1)} ms, max ${fmt(r.loadedMaxMs, 1)} ms (goal p99 <= 20 ms)`,
  );
  record('health p99 under 50 concurrent searches, 100,000 items', r.loadedP99Ms, r.idleP99Ms, 'ms', 'p99 <= 20 ms');
}

if (want('thinking')) {
  const r = await thinkingBench(await midSizeThinkerPath(), 100, 4);
  console.log(
    `thinking: a reasoning model's stream, ${r.tokens} tokens all inside its thought, mid-size thinker (qwen3, embedding 1024, 8 layers), 1 thread, ${r.rounds} alternating rounds`,
  );
  console.log(
    `  raw node-llama-cpp with the same Qwen wrapper ${fmt(r.raw)} tok/s, sanad (stream, every reasoning delta stored) ${fmt(r.sanad)} tok/s -> ratio ${fmt(r.sanad / r.raw, 3)} of the medians, ${fmt(r.pairedRatio, 3)} the median of each round's own (goal >= 0.95)`,
  );
  record('thinking stream tok/s vs raw with the same wrapper, mid-size', r.sanad, r.raw, 'tok/s', '>= 0.95');
}

if (want('structured')) {
  const r = await structuredBench(1000, 8);
  console.log(`structured output and Chat Completions: ${r.tokens} tokens, endless tiny model, 1 thread, ${r.rounds} alternating rounds`);
  console.log(
    `  under a JSON-schema grammar: raw node-llama-cpp ${fmt(r.grammar.raw)} tok/s, sanad (stream, every event stored) ${fmt(r.grammar.sanad)} tok/s -> ratio ${fmt(r.grammar.sanad / r.grammar.raw, 3)} of the medians, ${fmt(r.grammar.pairedRatio, 3)} the median of each round's own (goal >= 0.9)`,
  );
  console.log(
    `  streamed: Responses API ${fmt(r.chat.responses)} tok/s, Chat Completions ${fmt(r.chat.chat)} tok/s -> ratio ${fmt(r.chat.chat / r.chat.responses, 3)} of the medians, ${fmt(r.chat.pairedRatio, 3)} the median of each round's own (goal >= 0.95)`,
  );
  record('tokens/s under a JSON-schema grammar vs raw', r.grammar.sanad, r.grammar.raw, 'tok/s', '>= 0.9');
  record('chat completion streamed vs the Responses API', r.chat.chat, r.chat.responses, 'tok/s', '>= 0.95');
  // The same on a model of a real model's width, where a token costs what it does on a small real model.
  const m = await structuredBench(100, 4, await midSizeModelPath());
  console.log(`  mid-size model (embedding 1024, 8 layers, ~413 MB), ${m.tokens} tokens, ${m.rounds} rounds:`);
  console.log(
    `  under a JSON-schema grammar: raw ${fmt(m.grammar.raw)} tok/s, sanad ${fmt(m.grammar.sanad)} tok/s -> ratio ${fmt(m.grammar.sanad / m.grammar.raw, 3)} of the medians, ${fmt(m.grammar.pairedRatio, 3)} paired (goal >= 0.9)`,
  );
  record('tokens/s under a JSON-schema grammar vs raw, mid-size model', m.grammar.sanad, m.grammar.raw, 'tok/s', '>= 0.9');
}
if (want('engine-speed')) {
  const r = await engineSpeedBench(await midSizeModelPath(), 3, 100);
  const c = r.conversation;
  console.log(`engine-speed: mid-size model (embedding 1024, 8 layers, ~413 MB), 1 thread, raw node-llama-cpp in the same run`);
  console.log(
    `  conversation turn 2 after a ${c.turn1Tokens}-token turn 1, time to first text (median of ${c.rounds}): sanad ${fmt(c.sanadMs)} ms (${c.cachedTokens} input tokens cached), raw continuing its kept sequence ${fmt(c.rawWarmMs)} ms -> ratio ${fmt(c.sanadMs / c.rawWarmMs, 2)} (goal <= 1.2); a cold start of the same turn: raw ${fmt(c.rawColdMs)} ms`,
  );
  record('conversation turn 2: time to first text vs raw kept sequence', c.sanadMs, c.rawWarmMs, 'ms', '<= 1.2');
  const f = r.fourClients;
  const worst = Math.max(...f.sanadFirstMs);
  console.log(
    `  four clients, ${f.tokens} tokens each, default settings: sanad ${fmt(f.sanadTokPerS, 1)} tok/s together, raw 4 sequences on one context ${fmt(f.rawTokPerS, 1)} tok/s -> ratio ${fmt(f.sanadTokPerS / f.rawTokPerS, 3)} (goal >= 0.9)`,
  );
  console.log(
    `    first token: sanad alone ${fmt(f.sanadAloneFirstMs)} ms, each of four ${f.sanadFirstMs.map((ms) => fmt(ms)).join(' / ')} ms -> worst ${fmt(worst / f.sanadAloneFirstMs, 2)}x alone (goal <= 1.5); raw alone ${fmt(f.rawAloneFirstMs)} ms, four ${f.rawFirstMs.map((ms) => fmt(ms)).join(' / ')} ms`,
  );
  record('four clients: aggregate tok/s vs raw 4 sequences', f.sanadTokPerS, f.rawTokPerS, 'tok/s', '>= 0.9');
  record('four clients: slowest first token vs one alone', worst, f.sanadAloneFirstMs, 'ms', '<= 1.5');
  console.log(
    `  two models that fit, ${r.twoModels.requests} alternating requests: ${r.twoModels.reloads} loads after the first two (goal 0), median ${fmt(r.twoModels.medianMs)} ms a request`,
  );
  console.log(
    `  memory with the model loaded and 4 sequences used: sanad service ${fmt(r.memory.sanadRssMiB)} MiB RSS, raw node-llama-cpp process ${fmt(r.memory.rawRssMiB)} MiB -> ratio ${fmt(r.memory.sanadRssMiB / r.memory.rawRssMiB, 2)}`,
  );
  record('RSS with the model and 4 sequences vs raw', r.memory.sanadRssMiB, r.memory.rawRssMiB, 'MiB');
}
if (want('backup')) {
  const r = await backupBench(5000, 100, 3);
  const mib = (n: number): string => fmt(n / 1024 / 1024);
  const added = (s: typeof r.sanadFirst.summary): string => (s ? `${mib(s.data_added)} MiB added, ${s.files_unmodified} files unmodified` : 'no summary');
  console.log(`backup: store ${mib(r.data.storeBytes)} MiB (${r.data.tasks} tasks) + models ${mib(r.data.modelBytes)} MiB, local repo, median of ${r.runs}`);
  console.log(`  raw restic init + backup (generation dir + models), fresh repo: ${fmt(r.rawFirstMs, 0)} ms`);
  console.log(
    `  sanad first backup (generation + restic), fresh repo:         ${fmt(r.sanadFirst.ms, 0)} ms` +
      ` (generation ${fmt(r.sanadFirst.generationMs, 0)} ms, slowest step ${r.sanadFirst.slowestStep}; ${added(r.sanadFirst.summary)})`,
  );
  console.log(`  ratio ${fmt(r.sanadFirst.ms / r.rawFirstMs, 2)}x raw`);
  record('first backup', r.sanadFirst.ms, r.rawFirstMs, 'ms', '<= 1.05x');
  record('unchanged re-backup', r.sanadSecond.ms, r.rawSecondMs, 'ms', '<= 1.2x');
  console.log(`  raw restic second backup, unchanged (parent):                 ${fmt(r.rawSecondMs, 0)} ms`);
  console.log(
    `  sanad second backup, unchanged:                                ${fmt(r.sanadSecond.ms, 0)} ms` +
      ` (generation ${fmt(r.sanadSecond.generationMs, 0)} ms, slowest step ${r.sanadSecond.slowestStep}; ${added(r.sanadSecond.summary)})`,
  );
  console.log(`  ratio second/first ${fmt(r.sanadSecond.ms / r.sanadFirst.ms, 3)}; vs raw second ${fmt(r.sanadSecond.ms / r.rawSecondMs, 2)}x`);
  console.log(
    `  for scale, one raw \`restic cat config\` (start + key derivation): ${fmt(r.rawOpenMs, 0)} ms;` +
      ' sanad starts restic once per repository (parent from its own record), and its second run re-reads the new store copy',
  );
}
if (want('jobs')) {
  const r = await jobsBench(2000, 32, 5);
  console.log(`jobs: an unchanged backup through the job owner vs runBackup directly, same data, median of ${r.runs}`);
  console.log(`  runBackup directly:      ${fmt(r.directMs, 0)} ms`);
  record('a backup through the job owner', r.viaJobsMs, r.directMs, 'ms');
  console.log(`  through src/jobs/:       ${fmt(r.viaJobsMs, 0)} ms -> ratio ${fmt(r.viaJobsMs / r.directMs, 3)}`);
  console.log(`  one job's bookkeeping: ${fmt(r.jobUs, 1)} µs per job vs ${fmt(r.bareUs, 2)} µs for a bare awaited promise (${r.jobs} jobs)`);
}
if (want('restore')) {
  const r = await restoreBench(5000, 64, 3);
  const mib = (n: number): string => fmt(n / 1024 / 1024);
  console.log(`restore: store ${mib(r.data.storeBytes)} MiB (${r.data.tasks} tasks) + models ${mib(r.data.modelBytes)} MiB, local repo, median of ${r.runs}`);
  console.log(`  raw \`restic restore\` of the same snapshot, fresh cache: ${fmt(r.rawMs, 0)} ms`);
  const byPhase = (phases: typeof r.phases): string =>
    Object.entries(phases)
      .map(([phase, ms]) => `${phase} ${fmt(ms, 0)}`)
      .join(', ');
  console.log(
    `  sanad restore to a verified data dir (${r.checks} checks), this machine (its records): ${fmt(r.sanadMs, 0)} ms -> ratio ${fmt(r.sanadMs / r.rawMs, 2)}x raw`,
  );
  console.log(
    `  the same on a new machine (no records: restic lists and dumps): ${fmt(r.newMachineMs, 0)} ms -> ratio ${fmt(r.newMachineMs / r.rawMs, 2)}x raw`,
  );
  record('restore to a verified data dir', r.sanadMs, r.rawMs, 'ms', '<= 1.2x');
  record('restore on a new machine (no records)', r.newMachineMs, r.rawMs, 'ms');
  console.log(`  RTO for this data set: ${fmt(r.sanadMs / 1000, 2)} s; by phase: ${byPhase(r.phases)} (ms)`);
  console.log(`  new machine by phase: ${byPhase(r.newMachinePhases)} (ms)`);
}
if (want('restore-cli')) {
  // Whole processes, as a person runs them: the bench's data set and a small one (~1 MB store).
  for (const [tasks, modelMiB, label] of [
    [5000, 64, 'bench data'],
    [400, 1, 'small'],
  ] as const) {
    const r = await restoreCliBench(tasks, modelMiB, 5);
    const mib = (n: number): string => fmt(n / 1024 / 1024);
    console.log(
      `restore-cli (${label}): store ${mib(r.storeBytes)} MiB (${r.tasks} tasks) + models ${mib(r.modelBytes)} MiB, whole processes, median of ${r.runs}`,
    );
    console.log(
      `  raw \`restic restore\` process: ${fmt(r.rawMs, 0)} ms; \`sanad restore --target DIR\` process: ${fmt(r.sanadMs, 0)} ms -> ratio ${fmt(r.sanadMs / r.rawMs, 2)}x raw (goal <= 1.2x)`,
    );
    console.log(`  the CLI's first word after ${fmt(r.firstWordMs, 0)} ms (goal <= 150 ms)`);
    record(`sanad restore process (${label})`, r.sanadMs, r.rawMs, 'ms', '<= 1.2x');
  }
}
if (want('loop-delay')) {
  // SANAD_LOOP_TASKS=85000 makes the scale bench's ~440 MiB store (the default is the bench's data set).
  const r = await loopDelayBench(Number(process.env.SANAD_LOOP_TASKS ?? 5000) || 5000, 64);
  console.log(
    `loop-delay: the event loop while heavy work runs in this process, store ${fmt(r.storeBytes / 1024 / 1024)} MiB (goal: max <= 100 ms, p99 <= 20 ms)`,
  );
  console.log(`  idle loop (baseline), ${fmt(r.idle.ms, 0)} ms: max ${fmt(r.idle.maxMs, 1)} ms, p99 ${fmt(r.idle.p99Ms, 1)} ms`);
  for (const p of r.phases) {
    console.log(
      `  ${p.phase.padEnd(16)} ${fmt(p.ms, 0).padStart(6)} ms: max ${fmt(p.maxMs, 1)} ms, p99 ${fmt(p.p99Ms, 1)} ms${p.maxMs <= 100 && p.p99Ms <= 20 ? '' : '  (over the goal)'}`,
    );
    record(`loop delay, max during ${p.phase}`, p.maxMs, r.idle.maxMs, 'ms', '<= 100 ms');
  }
}
if (want('history')) {
  const r = await historyBench(5000, 3, 200);
  console.log(`history: a generation of ${r.tasks} tasks, local repo, median of ${r.runs} (fresh restic cache each)`);
  console.log(`  raw \`restic restore --include\` of its store:                 ${fmt(r.rawRestoreMs, 0)} ms`);
  console.log(
    `  sanad opens it to look inside (list, manifest, store, sha256, open): ${fmt(r.openMs, 0)} ms -> ratio ${fmt(r.openMs / r.rawRestoreMs, 2)}x raw`,
  );
  record('open a generation to look inside', r.openMs, r.rawRestoreMs, 'ms');
  record('DELETE with its journal line', r.deleteJournalUs, r.deleteBareUs, 'µs');
  console.log(
    `  a search over its responses: ${fmt(r.searchMs, 1)} ms vs the same LIKE in raw SQL ${fmt(r.rawSearchMs, 1)} ms -> ratio ${fmt(r.searchMs / r.rawSearchMs, 2)}x`,
  );
  console.log(
    `  DELETE of a response with its journal line (append + fsync): ${fmt(r.deleteJournalUs, 0)} µs vs without ${fmt(r.deleteBareUs, 0)} µs (median of ${r.deletes} each)`,
  );
}

if (want('store-check')) {
  for (const tasks of [5000, 50_000]) {
    const r = await storeCheckBench(tasks, 5);
    console.log(`store-check at start: store ${fmt(r.storeBytes / 1024 / 1024)} MiB (${r.tasks} tasks), median of 5`);
    console.log(
      `  raw read of the file: ${fmt(r.rawReadMs, 1)} ms; quick_check (read-only): ${fmt(r.quickCheckMs, 1)} ms -> ratio ${fmt(r.quickCheckMs / r.rawReadMs, 2)}x`,
    );
  }
}
if (want('security')) {
  const r = await securityBench(20_000, 5);
  const mib = (r.storeBytes / 1024 / 1024).toFixed(1);
  console.log(`security: what issue 27's defences cost, median of 5, store ${mib} MiB`);
  console.log(
    `  admitting a store from a backup (worker: schema + integrity_check): ${fmt(r.admitMs, 1)} ms; integrity_check alone on this thread: ${fmt(r.integrityMs, 1)} ms -> ratio ${fmt(r.admitMs / r.integrityMs, 2)}x`,
  );
  console.log(
    `  scrubbing a generation's store copy (worker: VACUUM): ${fmt(r.scrubMs, 1)} ms; the online-backup copy it follows: ${fmt(r.backupCopyMs, 1)} ms -> ratio ${fmt(r.scrubMs / r.backupCopyMs, 2)}x`,
  );
  console.log(
    `  deleting 5000 rows of ~4 KB: secure_delete ${fmt(r.secureDeleteMs, 1)} ms, without ${fmt(r.plainDeleteMs, 1)} ms -> ratio ${fmt(r.secureDeleteMs / r.plainDeleteMs, 2)}x`,
  );
  console.log(
    `  kept-alive GETs, 4 at a time: with the connection guard ${fmt(r.guardedPerSecond)} /s, without ${fmt(r.barePerSecond)} /s -> ratio ${fmt(r.guardedPerSecond / r.barePerSecond, 3)}`,
  );
  record('admit a backup store (worker) vs integrity_check', r.admitMs, r.integrityMs, 'ms');
  record('scrub the generation copy (VACUUM) vs the online-backup copy', r.scrubMs, r.backupCopyMs, 'ms');
  record('deletes with secure_delete vs without', r.secureDeleteMs, r.plainDeleteMs, 'ms');
  record('GETs with the connection guard vs without', r.guardedPerSecond, r.barePerSecond, 'req/s', '>= 0.95');
}
if (want('scale')) {
  // SANAD_SCALE_EVENTS=20000,60000 for a quick look; the default is the issue's million.
  const sizes = (process.env.SANAD_SCALE_EVENTS ?? '100000,300000,1000000')
    .split(',')
    .map(Number)
    .filter((n) => n > 0);
  const r = await scaleBench(sizes);
  console.log(
    `scale: stores of ${sizes.join(' / ')} task events (50 per task) and a ${fmt(r.modelBytes / 1024 ** 3, 0)} GiB sparse model; each operation the real CLI in its own process`,
  );
  const first = r.sizes[0];
  const last = r.sizes.at(-1);
  console.log(`  store size: ${r.sizes.map((x) => `${fmt(x.storeMiB, 0)} MiB`).join(' / ')}`);
  for (const [i, op] of (first?.ops ?? []).entries()) {
    const cells = r.sizes.map((x) => {
      const o = x.ops[i];
      if (!o) return '-';
      const cpu = o.cpuS === null || o.cpuS === undefined ? '' : `, ${fmt(o.cpuS, 1)} CPU s`;
      const added = o.addedBytes === undefined ? '' : `, +${fmt(o.addedBytes / 1024 / 1024, 1)} MiB`;
      return `${fmt(o.ms, 0)} ms${o.peakMiB === null ? '' : `, ${fmt(o.peakMiB, 0)} MiB peak`}${cpu}${added}`;
    });
    const a = first?.ops[i];
    const b = last?.ops[i];
    const growth =
      a && b && last && first && last.events > first.events ? ` (+${fmt(((b.ms - a.ms) / (last.events - first.events)) * 100_000, 0)} ms per 100k events)` : '';
    console.log(`  ${op.op}: ${cells.join(' / ')}${growth}`);
  }
  console.log(
    `  raw restic backup of the same store file and model (no init, no process start, no maintenance): ${r.sizes.map((x) => `${fmt(x.rawBackupMs, 0)} ms`).join(' / ')}`,
  );
  console.log("  (the CLI's first backup also creates the repository and runs its first maintenance: forget, prune, check)");
  const hourly = last?.ops.find((o) => o.op.startsWith('backup after an hour'));
  if (hourly && last) record(`hourly backup at ${last.events} events + 2 GiB model (CLI process)`, hourly.ms, last.rawBackupMs, 'ms');
}
if (json) console.log(JSON.stringify({ measured: summary }));
process.exit(0);
