// Engine settings from the environment and the stored settings. The default thread count leaves
// a core free: llama.cpp's own default oversubscribes small machines and runs ~1000x slower.
import { availableParallelism } from 'node:os';
import type { EngineOptions } from '../engine/engine.js';
import type { Settings } from '../store/settings.js';

export function engineOptions(settings: Settings, env: NodeJS.ProcessEnv = process.env): EngineOptions {
  const cores = availableParallelism();
  const fromEnv = Number(env.SANAD_THREADS);
  const threads = Number.isInteger(fromEnv) && fromEnv > 0 ? fromEnv : Math.max(1, Math.min(8, Math.floor(cores / 2)));
  return {
    concurrency: settings.max_concurrent_generations,
    threads,
    gpu: env.SANAD_GPU === 'off' || env.SANAD_GPU === '0' ? false : 'auto',
    idleUnloadMs: settings.model_idle_unload_seconds * 1000,
    ...(settings.model_memory_budget_mb !== null ? { memoryBudgetBytes: settings.model_memory_budget_mb * 1024 * 1024 } : {}),
    tokenBudgetMs: settings.max_seconds_per_output_token * 1000,
  };
}
