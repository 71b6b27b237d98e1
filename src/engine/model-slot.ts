// The bookkeeping of one model in memory: its load, its kept sequences, the completions running
// on it, when it was last used (for the least-recently-used eviction) and how fast it last ran.
import type { LlamaEmbeddingContext, LlamaRankingContext } from 'node-llama-cpp';
import type { Loaded } from './chat-history.js';
import type { LoadedModelInfo, LoadSettings } from './engine.js';
import type { SequencePool } from './sequence-pool.js';

export class ModelSlot {
  ready: Promise<void> = Promise.resolve();
  loaded: Loaded | null = null;
  pool: SequencePool | null = null;
  /** The embedding context, made on the first embeddings request (disposed with the model). */
  embedding: Promise<LlamaEmbeddingContext> | null = null;
  /** The ranking context of a reranker, made on the first rerank request (disposed with the model). */
  ranking: Promise<LlamaRankingContext> | null = null;
  /** Estimated bytes of the weights and the context, set once loaded. */
  memoryBytes = 0;
  active = 0;
  /** Larger is more recent (a counter the engine advances). */
  lastUsed = 0;
  lastTokensPerSecond: number | null = null;
  loadedAt = 0;
  idleTimer: NodeJS.Timeout | null = null;
  private drainWaiters: Array<() => void> = [];

  constructor(
    readonly modelId: string,
    readonly modelPath: string,
    readonly settings: LoadSettings,
  ) {}

  /** The same model file loaded the same way (a changed context or GPU setting loads it again). */
  serves(modelId: string, modelPath: string, settings: LoadSettings): boolean {
    return (
      this.modelId === modelId &&
      this.modelPath === modelPath &&
      this.settings.contextSize === settings.contextSize &&
      this.settings.gpuLayers === settings.gpuLayers
    );
  }

  info(): LoadedModelInfo | null {
    if (!this.loaded || !this.pool) return null;
    return {
      id: this.modelId,
      memoryBytes: this.memoryBytes,
      contextSize: this.loaded.context.contextSize,
      sequences: this.pool.size,
      busy: this.pool.busy,
      lastTokensPerSecond: this.lastTokensPerSecond,
      loadedAt: this.loadedAt,
    };
  }

  clearIdleTimer(): void {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
  }

  drained(): Promise<void> {
    if (this.active === 0) return Promise.resolve();
    return new Promise((resolve) => this.drainWaiters.push(resolve));
  }

  notifyDrained(): void {
    const waiters = this.drainWaiters;
    this.drainWaiters = [];
    for (const resolve of waiters) resolve();
  }
}
