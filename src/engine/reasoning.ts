// How hard a model thinks, per request: OpenAI's `reasoning.effort` mapped onto what each of
// node-llama-cpp's thinking chat wrappers offers. Qwen and Gemma 4 have a thinking switch, Harmony
// (gpt-oss) a reasoning effort in its system message, and every wrapper with thought segments a
// thought-token budget, after which node-llama-cpp closes the thought and the answer begins.
import {
  DeepSeekChatWrapper,
  Gemma4ChatWrapper,
  HarmonyChatWrapper,
  LlamaText,
  QwenChatWrapper,
  SeedChatWrapper,
  resolveChatWrapper,
  type ChatWrapper,
  type LlamaModel,
  type ResolveChatWrapperWithModelOptions,
} from 'node-llama-cpp';
import type { ReasoningEffort } from './engine.js';

/**
 * The tokens a thought took as the model wrote it: its segment's opening marker (`<think>\n`), its
 * text, and once it ended the closing one. A resumed completion counts the thought it continues
 * this way, so it ends where an uninterrupted one would.
 */
export function thoughtTokenCount(model: LlamaModel, wrapper: ChatWrapper, thought: string, ended: boolean): number {
  const segment = wrapper.settings.segments?.thought;
  const prefix = segment?.prefix;
  const opening = typeof prefix === 'string' || LlamaText.isLlamaText(prefix) ? prefix : '';
  return LlamaText([opening, thought, ended ? (segment?.suffix ?? '') : '']).tokenize(model.tokenizer, 'trimLeadingSpace').length;
}

/** Whether the wrapper reads thinking out of a model's answer (thought, or Harmony's analysis/comment). */
export function wrapperThinks(wrapper: ChatWrapper): boolean {
  const segments = wrapper.settings.segments;
  return segments?.thought != null || segments?.comment != null;
}

/**
 * Thought tokens allowed per effort. `high` keeps node-llama-cpp's own default (half to three
 * quarters of the context); `none` is 0 for a model without a switch (the thought closes at once).
 */
export const THOUGHT_BUDGET: Record<ReasoningEffort, number | undefined> = {
  none: 0,
  minimal: 256,
  low: 1024,
  medium: 4096,
  high: undefined,
};

type CustomSettings = NonNullable<ResolveChatWrapperWithModelOptions['customWrapperSettings']>;

/** The wrapper's own setting for an effort, or null when only the budget applies. */
function settingsFor(wrapper: ChatWrapper, effort: ReasoningEffort): CustomSettings | null {
  if (wrapper instanceof QwenChatWrapper) return effort === 'none' ? { qwen: { thoughts: 'discourage' } } : null;
  if (wrapper instanceof Gemma4ChatWrapper) return effort === 'none' ? { gemma4: { reasoning: false } } : null;
  if (wrapper instanceof HarmonyChatWrapper) {
    // Harmony has no "off": none and minimal are its lowest effort, with the budget doing the rest.
    const reasoningEffort = effort === 'high' ? 'high' : effort === 'medium' ? 'medium' : 'low';
    return { harmony: { reasoningEffort } };
  }
  if (wrapper instanceof SeedChatWrapper) return { seed: { thinkingBudget: effort === 'none' ? 0 : (THOUGHT_BUDGET[effort] ?? null) } };
  if (wrapper instanceof DeepSeekChatWrapper) return null;
  return null;
}

/**
 * The chat wrappers of one loaded model, one per distinct setting, made once each (resolving a
 * wrapper renders the model's template against test histories: tens of milliseconds).
 */
export class ReasoningWrappers {
  private readonly variants = new Map<string, ChatWrapper>();

  constructor(
    private readonly model: LlamaModel,
    readonly base: ChatWrapper,
  ) {}

  /** Whether this model thinks at all. */
  get thinks(): boolean {
    return wrapperThinks(this.base);
  }

  /** The wrapper for a request's effort (absent: the model's default). */
  wrapperFor(effort: ReasoningEffort | undefined): ChatWrapper {
    if (effort === undefined || !this.thinks) return this.base;
    const settings = settingsFor(this.base, effort);
    if (!settings) return this.base;
    const key = JSON.stringify(settings);
    let wrapper = this.variants.get(key);
    if (!wrapper) {
      wrapper = resolveChatWrapper(this.model, { customWrapperSettings: settings });
      this.variants.set(key, wrapper);
    }
    return wrapper;
  }
}
