// How hard a reasoning model thinks before it answers: OpenAI's `reasoning.effort` values (the
// Responses door, Chat Completions' `reasoning_effort`, a conversation's settings in the GUI).
// A file without zod, so the engine and the GUI's bundle import it for nothing.

export const REASONING_EFFORTS = ['none', 'minimal', 'low', 'medium', 'high'] as const;
export type ReasoningEffort = (typeof REASONING_EFFORTS)[number];

export function isReasoningEffort(value: unknown): value is ReasoningEffort {
  return REASONING_EFFORTS.some((effort) => effort === value);
}
