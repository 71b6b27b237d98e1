// What the task runner asks of the model registry: a registered model's file, checked. The runner
// depends on this interface, not on the registry, and the registry (engine) stays below tasks.
import type { LoadSettings } from './engine.js';

export interface ModelResolver {
  resolveForRun(modelId: string): Promise<{ path: string; settings: RunSettings }>;
}

/** A model's own run settings (sanad models set); absent: the engine's and the request's defaults. */
export interface RunSettings {
  contextSize?: number;
  gpuLayers?: 'auto' | number;
  temperature?: number;
  maxOutputTokens?: number;
}

/** The part of a model's settings that decides how it is loaded. */
export function loadSettingsOf(settings: RunSettings): LoadSettings {
  return {
    ...(settings.contextSize !== undefined ? { contextSize: settings.contextSize } : {}),
    ...(settings.gpuLayers !== undefined ? { gpuLayers: settings.gpuLayers } : {}),
  };
}

export class ModelUnavailableError extends Error {
  constructor(
    message: string,
    readonly code: 'model_not_found' | 'model_missing' | 'model_changed',
  ) {
    super(message);
    this.name = 'ModelUnavailableError';
  }
}
