// A model's run settings, checked against what the model itself says (its GGUF metadata): a
// context longer than it was trained for is refused with that number, GPU layers beyond its
// layer count likewise. One sentence per problem, for the CLI and the GUI alike.
import type { ModelRow } from '../store/models.js';

/** A change: a value sets it, null clears it (back to the default), undefined leaves it. */
export interface SettingsChange {
  context_size?: number | null;
  gpu_layers?: 'auto' | number | null;
  temperature?: number | null;
  max_output_tokens?: number | null;
}

/** A model's context when nothing sets one: "auto" could pick a 128k context and eat the RAM of a
 *  small machine. */
export const DEFAULT_MAX_CONTEXT = 8192;

/** The context a model gets: the one wanted (its own setting), else up to DEFAULT_MAX_CONTEXT; never
 *  beyond what it was trained for (null: its metadata does not say). The registry's limits and the
 *  engine's load both read it here, so they cannot disagree. */
export function contextOf(trained: number | null, wanted: number | null | undefined): number {
  const train = trained ?? DEFAULT_MAX_CONTEXT;
  return wanted ? Math.min(wanted, train) : Math.min(train, DEFAULT_MAX_CONTEXT);
}

/** Without a trained context in the metadata, no context above this is accepted. */
const MAX_UNKNOWN_CONTEXT = 131_072;
const MIN_CONTEXT = 256;

export function checkModelSettings(row: Pick<ModelRow, 'id' | 'context_length' | 'context_size' | 'max_output_tokens'>, change: SettingsChange): string | null {
  const ctx = change.context_size;
  if (ctx !== undefined && ctx !== null) {
    if (!Number.isInteger(ctx) || ctx < MIN_CONTEXT) return `The context must be a whole number of tokens, at least ${MIN_CONTEXT}; ${ctx} is not.`;
    if (row.context_length !== null && ctx > row.context_length) {
      return `Model "${row.id}" was trained for a context of ${row.context_length} tokens, so it cannot use ${ctx}; pick ${row.context_length} or less.`;
    }
    if (row.context_length === null && ctx > MAX_UNKNOWN_CONTEXT)
      return `Model "${row.id}" does not say how long a context it was trained for; pick ${MAX_UNKNOWN_CONTEXT} or less.`;
  }
  const gpu = change.gpu_layers;
  if (gpu !== undefined && gpu !== null && gpu !== 'auto' && (!Number.isInteger(gpu) || gpu < 0 || gpu > 1000)) {
    return `GPU layers must be "auto" or a whole number from 0 (CPU only) up; ${String(gpu)} is not.`;
  }
  const t = change.temperature;
  if (t !== undefined && t !== null && (!Number.isFinite(t) || t < 0 || t > 2)) return `The temperature must be between 0 and 2; ${t} is not.`;
  const out = change.max_output_tokens;
  if (out !== undefined && out !== null) {
    if (!Number.isInteger(out) || out < 1) return `The max output tokens must be a whole number, at least 1; ${out} is not.`;
    const context = ctx === undefined ? row.context_size : ctx;
    if (context !== null && out > context) return `The max output tokens (${out}) cannot exceed the model's context (${context} tokens).`;
  }
  return null;
}

/** "4096" → 4096, "auto" → 'auto', "default" → null; anything else: undefined (the caller refuses). */
export function parseGpuLayers(text: string): 'auto' | number | null | undefined {
  if (text === 'auto') return 'auto';
  if (text === 'default') return null;
  return /^\d{1,4}$/.test(text) ? Number(text) : undefined;
}
