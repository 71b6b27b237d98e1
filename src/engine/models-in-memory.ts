// Which registered models are in memory, and loading or unloading one by hand (the Models screen's
// buttons, POST /admin/models/{id}/load and /unload). A load goes through the same checks as a
// request's: a missing or changed file is refused before llama.cpp sees it.
import type { ChatMessage, EmbedResult, Engine, GenerateRequest, LoadedModelInfo, RankResult } from './engine.js';
import { loadSettingsOf, type ModelResolver } from './model-resolver.js';

export class ModelsInMemory {
  constructor(
    private readonly engine: Engine,
    private readonly models: ModelResolver,
  ) {}

  /** The models in memory, most recently used first. */
  list(): LoadedModelInfo[] {
    return this.engine.loadedModels();
  }

  of(modelId: string): LoadedModelInfo | null {
    return this.list().find((m) => m.id === modelId) ?? null;
  }

  /** Loads a registered model now (it stays until idle, evicted or unloaded). */
  async load(modelId: string, signal?: AbortSignal): Promise<LoadedModelInfo | null> {
    const { path, settings } = await this.models.resolveForRun(modelId);
    await this.engine.load(modelId, path, signal, loadSettingsOf(settings));
    return this.of(modelId);
  }

  /** The tokens these messages take as the model's prompt (its chat template), loading it if needed. */
  async promptTokens(modelId: string, messages: ChatMessage[], shape?: Pick<GenerateRequest, 'tools' | 'format'>): Promise<number> {
    await this.load(modelId);
    return this.engine.promptTokens(modelId, messages, shape);
  }

  /** Embeds texts (or token lists) with a registered model, loading it if needed. */
  async embed(modelId: string, inputs: ReadonlyArray<string | readonly number[]>, signal: AbortSignal): Promise<EmbedResult> {
    const { path, settings } = await this.models.resolveForRun(modelId);
    return this.engine.embed({ modelId, modelPath: path, load: loadSettingsOf(settings), inputs, signal });
  }

  /** Scores documents against a query with a registered reranker, loading it if needed. */
  async rank(modelId: string, query: string, documents: readonly string[], signal: AbortSignal): Promise<RankResult> {
    const { path, settings } = await this.models.resolveForRun(modelId);
    return this.engine.rank({ modelId, modelPath: path, load: loadSettingsOf(settings), query, documents, signal });
  }

  /** Unloads a model once its running completions end; false if it was not in memory. */
  unload(modelId: string): Promise<boolean> {
    return this.engine.unload(modelId);
  }
}
