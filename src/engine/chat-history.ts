// From Sanad's chat messages to node-llama-cpp's chat history and back: the chat template, the
// continuation of a resumed answer, prompt token counts and stop reasons.
import {
  GeneralChatWrapper,
  resolveChatWrapper,
  type ChatHistoryItem,
  type ChatModelFunctions,
  type ChatModelResponse,
  type ChatModelSegment,
  type ChatWrapper,
  type LlamaContext,
  type LlamaModel,
  type Token,
} from 'node-llama-cpp';
import type { ChatMessage, StopReason } from './engine.js';
import type { ReasoningWrappers } from './reasoning.js';

/** A model in memory with its context and the chat template it speaks. */
export interface Loaded {
  model: LlamaModel;
  context: LlamaContext;
  chatWrapper: ChatWrapper;
  /** The wrapper per reasoning effort (its base is chatWrapper). */
  reasoning: ReasoningWrappers;
}

export function chatWrapperFor(model: LlamaModel): ChatWrapper {
  const template = model.fileInfo.metadata.tokenizer?.chat_template;
  // Without a template, node-llama-cpp would guess from the architecture (Llama 2 for "llama"),
  // whose default system prompt alone overflows a small context.
  if (typeof template === 'string' && template.trim() !== '') return resolveChatWrapper(model);
  return new GeneralChatWrapper();
}

export function toHistory(messages: ChatMessage[], continuation: string | undefined, continuationThought?: string): ChatHistoryItem[] {
  const history: ChatHistoryItem[] = messages.map((m): ChatHistoryItem => {
    if (m.role === 'system') return { type: 'system', text: m.content };
    if (m.role === 'user') return { type: 'user', text: m.content };
    const response: ChatModelResponse['response'] = [];
    if (m.reasoning) response.push(thought(m.reasoning, true));
    if (m.content !== '') response.push(m.content);
    for (const call of m.calls ?? [])
      response.push({ type: 'functionCall', name: call.name, params: parsedOr(call.arguments), result: call.result === null ? '' : parsedOr(call.result) });
    return { type: 'model', response };
  });
  // The partial answer as the last model item: LlamaChat then continues it in place (a thought not
  // yet ended goes on as a thought).
  if (continuationThought !== undefined && continuationThought !== '') {
    const text = continuation ?? '';
    history.push({ type: 'model', response: [thought(continuationThought, text !== ''), ...(text !== '' ? [text] : [])] });
  } else if (continuation !== undefined) history.push({ type: 'model', response: [continuation] });
  return history;
}

function thought(text: string, ended: boolean): ChatModelSegment {
  return { type: 'segment', segmentType: 'thought', text, ended };
}

/** JSON text as the value it holds, or the text itself when it is not JSON (a function's free-text output). */
function parsedOr(text: string): unknown {
  try {
    const value: unknown = JSON.parse(text);
    return value;
  } catch {
    return text;
  }
}

/** The rendered prompt's tokens, up to where the model starts writing (the continuation included). */
export function promptTokensOf(loaded: Loaded, history: ChatHistoryItem[], wrapper: ChatWrapper = loaded.chatWrapper, functions?: ChatModelFunctions): Token[] {
  // LlamaChat opens an empty model item when the history does not end with one; render it the same,
  // with the functions it offers the model (their signatures are part of the prompt).
  const open: ChatHistoryItem[] = history.at(-1)?.type === 'model' ? history : [...history, { type: 'model', response: [] }];
  return wrapper
    .generateContextState({ chatHistory: open, ...(functions ? { availableFunctions: functions } : {}) })
    .contextText.tokenize(loaded.model.tokenizer);
}

export function toStopReason(reason: string): StopReason {
  if (reason === 'maxTokens') return 'max_tokens';
  if (reason === 'abort') return 'abort';
  // eogToken, stopGenerationTrigger, customStopTrigger, functionCalls: the model ended its turn.
  return 'eos';
}
