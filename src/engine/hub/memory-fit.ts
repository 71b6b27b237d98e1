// Whether a GGUF model fits this machine's memory, before a byte of it is downloaded: node-llama-cpp
// reads the file's header over the network (Range requests) and its GGUF insights estimate what
// the weights and a context of the size Sanad would use need. Said as a sentence; never a refusal
// on its own (the estimate is an estimate, and the user may close other programs).
import { totalmem } from 'node:os';
import { formatBytes } from '../../store/disk.js';

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
    const { readGgufFileInfo, GgufInsights } = lib;
    const info = await readGgufFileInfo(url, {
      sourceType: 'network',
      fetchHeaders: headers,
      logWarnings: false,
      fetchRetryOptions: { retries: 2, minTimeout: 200 },
      ...(signal ? { signal } : {}),
    });
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
