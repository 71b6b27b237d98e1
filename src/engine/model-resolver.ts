// What the task runner asks of the model registry: a registered model's file, checked. The runner
// depends on this interface, not on the registry, and the registry (engine) stays below tasks.
export interface ModelResolver {
  resolveForRun(modelId: string): Promise<{ path: string }>;
}

export class ModelUnavailableError extends Error {
  constructor(message: string, readonly code: 'model_not_found' | 'model_missing' | 'model_changed') {
    super(message);
    this.name = 'ModelUnavailableError';
  }
}
