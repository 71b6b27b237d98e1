// A conversation's own settings (title, model, instructions, temperature, max output tokens, thinking
// effort) kept in
// its metadata through the public Conversations API, so they are in the store, in every backup and
// come back with the conversation. Metadata is OpenAI's: at most 16 keys, each value at most 512
// characters; instructions longer than that are kept in numbered parts (`instructions`,
// `instructions_2`, …). Keys this GUI does not know (another client's) are kept as they are.
import { isReasoningEffort, type ReasoningEffort } from '../../../../src/contract/reasoning';

export const VALUE_MAX = 512;
export const INSTRUCTION_PARTS = 8;
export const INSTRUCTIONS_MAX = VALUE_MAX * INSTRUCTION_PARTS;
export const TITLE_MAX = 120;

export interface ChatSettings {
  title: string;
  model: string;
  instructions: string;
  /** Empty: the model's default. */
  temperature: number | null;
  maxOutputTokens: number | null;
  /** How much a thinking model may think (`reasoning.effort`); null: the model's default. */
  reasoningEffort: ReasoningEffort | null;
}

export const DEFAULT_SETTINGS: ChatSettings = { title: '', model: '', instructions: '', temperature: null, maxOutputTokens: 1024, reasoningEffort: null };

const partKey = (i: number): string => (i === 0 ? 'instructions' : `instructions_${i + 1}`);
const OWN_KEYS = new Set([
  'title',
  'model',
  'temperature',
  'max_output_tokens',
  'reasoning_effort',
  ...Array.from({ length: INSTRUCTION_PARTS }, (_, i) => partKey(i)),
]);

function numberOr(value: string | undefined, fallback: number | null): number | null {
  if (value === undefined || value.trim() === '') return fallback;
  const n = Number(value);
  return Number.isFinite(n) ? n : fallback;
}

export function settingsFrom(metadata: Readonly<Record<string, string>>): ChatSettings {
  let instructions = '';
  for (let i = 0; i < INSTRUCTION_PARTS; i++) instructions += metadata[partKey(i)] ?? '';
  return {
    title: metadata.title ?? '',
    model: metadata.model ?? '',
    instructions,
    temperature: numberOr(metadata.temperature, null),
    maxOutputTokens: metadata.max_output_tokens === undefined ? DEFAULT_SETTINGS.maxOutputTokens : numberOr(metadata.max_output_tokens, null),
    reasoningEffort: isReasoningEffort(metadata.reasoning_effort) ? metadata.reasoning_effort : null,
  };
}

/** The metadata that holds `settings`, beside the keys of others that `previous` had. */
export function metadataFor(settings: ChatSettings, previous: Readonly<Record<string, string>> = {}): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(previous)) if (!OWN_KEYS.has(k)) out[k] = v;
  if (settings.title !== '') out.title = settings.title.slice(0, TITLE_MAX);
  if (settings.model !== '') out.model = settings.model;
  if (settings.temperature !== null) out.temperature = String(settings.temperature);
  // Stored even when empty, so "no limit" is told apart from "never set" (the default).
  out.max_output_tokens = settings.maxOutputTokens === null ? '' : String(settings.maxOutputTokens);
  if (settings.reasoningEffort !== null) out.reasoning_effort = settings.reasoningEffort;
  const text = settings.instructions.slice(0, INSTRUCTIONS_MAX);
  for (let i = 0; i * VALUE_MAX < text.length; i++) out[partKey(i)] = text.slice(i * VALUE_MAX, (i + 1) * VALUE_MAX);
  return out;
}

/** A title from the first thing said: its first line, shortened at a word. */
export function titleFrom(text: string): string {
  const line = text.trim().split('\n')[0]?.trim() ?? '';
  if (line.length <= 60) return line;
  const cut = line.slice(0, 60);
  const space = cut.lastIndexOf(' ');
  return `${(space > 30 ? cut.slice(0, space) : cut).trimEnd()}…`;
}
