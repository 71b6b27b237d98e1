// Whether a GGUF model fits this machine's memory, before the model is downloaded: the file's header
// is read with a byte and a time limit (header-bytes.ts), parsed by node-llama-cpp in a worker with
// a memory limit (gguf-info-worker.ts), and its GGUF insights estimate what the weights and a
// context of the size Sanad would use need. Said as a sentence; never a refusal on its own (the
// estimate is an estimate, and the user may close other programs). A header that cannot be read
// within those limits, whatever the server sent, is "could not be estimated", not a failure.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import type { GgufFileInfo } from 'node-llama-cpp';
import { callWorker } from '../../process/worker-call.js';
import { formatBytes } from '../../store/disk.js';
import { fetchHeaderBytes } from './header-bytes.js';

const GGUF_INFO_WORKER = new URL('./gguf-info-worker.js', import.meta.url);
/** The parse of a bounded header is quick; a parser kept busy longer is stopped. */
const PARSE_TIME_LIMIT_MS = 20_000;
/** A worker's heap: a few times the largest header it may be given. */
const PARSE_HEAP_MB = 256;

/** What the worker sends back: node-llama-cpp's file info (structured-cloned), checked for its shape. */
function isInfoAnswer(msg: unknown): msg is { ok: true; info: GgufFileInfo } | { ok: false; error: string } {
  if (typeof msg !== 'object' || msg === null || !('ok' in msg)) return false;
  if (msg.ok === false) return 'error' in msg && typeof msg.error === 'string';
  if (msg.ok !== true || !('info' in msg)) return false;
  const info = msg.info;
  return typeof info === 'object' && info !== null && 'version' in info && 'metadata' in info && typeof info.metadata === 'object';
}

/** The header's bytes, fetched within their limits, parsed off the main thread. */
async function remoteInfo(url: string, headers: Record<string, string>, signal?: AbortSignal): Promise<GgufFileInfo | null> {
  const bytes = await fetchHeaderBytes(url, headers, signal);
  const dir = await mkdtemp(join(tmpdir(), 'sanad-header-'));
  try {
    const path = join(dir, 'header.gguf');
    await writeFile(path, bytes, { mode: 0o600 });
    const answer = await callWorker(
      GGUF_INFO_WORKER,
      { path },
      {
        timeLimitMs: PARSE_TIME_LIMIT_MS,
        isAnswer: isInfoAnswer,
        resourceLimits: { maxOldGenerationSizeMb: PARSE_HEAP_MB, maxYoungGenerationSizeMb: 32 },
        ...(signal ? { signal } : {}),
      },
    );
    return answer.ok && answer.value.ok ? answer.value.info : null;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** node-llama-cpp and its native binding take ~1 s to load: only a pull needs them, and it starts
 *  loading them (preloadInsights) while it asks the hub about the file, so the two overlap. */
let library: Promise<typeof import('node-llama-cpp')> | null = null;
export function preloadInsights(): void {
  library ??= import('node-llama-cpp');
  library.catch(() => undefined);
}

export interface MemoryFit {
  /** Bytes the model and its context need, by the estimate. */
  needed: number;
  total: number;
  fits: boolean;
  contextSize: number;
  trainContextSize: number | null;
  sentence: string;
}

/** The context Sanad gives a model that has no setting of its own (llama-engine.ts's cap). */
export const DEFAULT_CONTEXT = 8192;
/** What is left to the rest of the machine: a model may take at most this share of the memory. */
const SHARE = 0.8;

export async function estimateMemoryFit(url: string, headers: Record<string, string>, signal?: AbortSignal): Promise<MemoryFit | null> {
  try {
    preloadInsights();
    const lib = await library;
    if (!lib) return null;
    const { GgufInsights } = lib;
    const info = await remoteInfo(url, headers, signal);
    if (info === null) return null;
    const insights = await GgufInsights.from(info);
    const train = insights.trainContextSize ?? null;
    const contextSize = Math.min(train ?? DEFAULT_CONTEXT, DEFAULT_CONTEXT);
    const model = insights.estimateModelResourceRequirements({ gpuLayers: 0 });
    const context = insights.estimateContextResourceRequirements({ contextSize, modelGpuLayers: 0, sequences: 1 });
    const needed = model.cpuRam + model.gpuVram + context.cpuRam + context.gpuVram;
    const total = totalmem();
    const fits = needed <= total * SHARE;
    const sentence = fits
      ? `It needs about ${formatBytes(needed)} of memory with a ${contextSize}-token context; this machine has ${formatBytes(total)}, so it fits.`
      : `It needs about ${formatBytes(needed)} of memory with a ${contextSize}-token context, more than this machine's ${formatBytes(total)} can spare: it may not load, or load slowly; a smaller quantization (such as :Q4_K_M or :Q3_K_M) would fit better.`;
    return { needed, total, fits, contextSize, trainContextSize: train, sentence };
  } catch (err) {
    if (signal?.aborted) throw err;
    return null;
  }
}
