// What a failed load of a registered model says to a client: an unknown model is a 404, a missing
// or changed file its own code, a file llama.cpp could not load an engine error. Shared by the routes
// that load a model outside a turn (loading by hand, counting tokens, embeddings).
import { ModelLoadError } from '../engine/llama-engine.js';
import { ModelUnavailableError } from '../engine/model-resolver.js';
import { ApiError, notFound } from './errors.js';

export async function withModelLoaded<T>(modelId: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if (err instanceof ModelUnavailableError) {
      if (err.code === 'model_not_found') throw notFound(`Model ${modelId}`, 'model_not_found');
      throw new ApiError(err.code, err.message);
    }
    if (err instanceof ModelLoadError) throw new ApiError('engine_error', err.message);
    throw err;
  }
}
