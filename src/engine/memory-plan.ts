// How many models fit in memory, and how many sequences each gets. A model needs its weights plus
// a context whose KV cache grows with every sequence (each holds a full context of its own), so a
// model on a small machine gets fewer sequences before it crowds out another model.
import { totalmem } from 'node:os';
import { GgufInsights, readGgufFileInfo, type Llama } from 'node-llama-cpp';

/** Without a setting, models may use this share of the computer's memory. */
const DEFAULT_BUDGET_SHARE = 0.5;

export function defaultMemoryBudget(total = totalmem()): number {
  return Math.floor(total * DEFAULT_BUDGET_SHARE);
}

export interface MemoryNeed {
  /** The weights, in bytes (the file's tensors). */
  modelBytes: number;
  /** The context with `sequences` sequences of `contextSize` tokens each, in bytes. */
  contextBytes(sequences: number): Promise<number>;
}

/** What a model file will take once loaded with this context on these GPU layers. */
export async function memoryNeed(llama: Llama, modelPath: string, contextSize: number, gpuLayers: number): Promise<MemoryNeed> {
  const insights = await GgufInsights.from(await readGgufFileInfo(modelPath, { logWarnings: false }), llama);
  const model = await insights.estimateModelResourceRequirementsV2({ gpuLayers });
  return {
    modelBytes: model.cpuRam + model.gpuVram,
    contextBytes: async (sequences) => {
      const context = await insights.estimateContextResourceRequirementsV2({ contextSize, modelGpuLayers: gpuLayers, sequences });
      return context.cpuRam + context.gpuVram;
    },
  };
}

/**
 * The most sequences (up to `max`) whose context fits in `freeBytes` beside the weights; at least
 * one, since a model that is asked for is loaded even when it alone overflows the budget.
 */
export async function sequencesThatFit(need: MemoryNeed, freeBytes: number, max: number): Promise<{ sequences: number; bytes: number }> {
  let best = { sequences: 1, bytes: need.modelBytes + (await need.contextBytes(1)) };
  for (let n = 2; n <= max; n++) {
    const bytes = need.modelBytes + (await need.contextBytes(n));
    if (bytes > freeBytes) break;
    best = { sequences: n, bytes };
  }
  return best;
}
