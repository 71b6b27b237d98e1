// The Engine on llama.cpp through node-llama-cpp 3.21. Several models in memory, as the memory
// budget allows (the least recently used is unloaded first); each has one context whose sequences
// are kept between requests, so a conversation's next turn evaluates only its new tokens.
import {
  getLlama,
  LlamaChat,
  LlamaCompletion,
  LlamaLogLevel,
  type ChatHistoryItem,
  type ChatModelFunctions,
  type ChatWrapper,
  type GbnfJsonSchema,
  type Llama,
  type LlamaContextSequence,
  type LlamaGrammar,
  type LlamaChatResponseChunk,
  type LlamaModel,
  type Token,
} from 'node-llama-cpp';
import { firstLine, settleWithin, untilAborted } from './async-waits.js';
import type { JsonSchemaObject } from '../contract/json-schema.js';
import { chatWrapperFor, promptTokensOf, toHistory, toStopReason, type Loaded } from './chat-history.js';
import { ReasoningWrappers, THOUGHT_BUDGET, thoughtTokenCount } from './reasoning.js';
import { ThinkingTally } from './thinking-tally.js';
import {
  CompletionFailure,
  type ChatMessage,
  type Engine,
  type EngineOptions,
  type GenerateRequest,
  type GenerateResult,
  type LoadedModelInfo,
  type EmbedRequest,
  type EmbedResult,
  type RankRequest,
  type RankResult,
  type LoadSettings,
  type TokensOf,
} from './engine.js';
import { NotGgufError, readGgufHeader, type GgufHeaderInfo } from './gguf-header.js';
import { callsOrAnswer, callsOrAnswerSchema, chatFunctions, forcedCall, forcedCallSchema } from './tool-calls.js';
import { ModelSlot } from './model-slot.js';
import { embedOn, rankOn } from './vector-work.js';
import { contextOf } from './model-settings.js';
import { defaultMemoryBudget, memoryNeed, sequencesThatFit } from './memory-plan.js';
import { SequencePool } from './sequence-pool.js';
import { sampleOneAtATime } from './serial-sampling.js';
import { TokenBudget } from './token-budget.js';
import { systemClock, unixSeconds } from '../clock.js';

/** A model file that llama.cpp cannot use; the message is one sentence meant for the user. */
export class ModelLoadError extends Error {
  override name = 'ModelLoadError';
}

/** A load that another model's load overtook; generate() simply asks again. */
class SupersededError extends Error {
  override name = 'SupersededError';
}

/**
 * node-llama-cpp 3.21 leaks a dispose guard when a model fails to load and its object is garbage
 * collected before the backend is disposed: `llama.dispose()` then never settles. close() waits
 * this long for it and then lets go (the process can still exit; nothing is left running).
 */
const BACKEND_DISPOSE_TIMEOUT_MS = 1000;
/** llama.cpp's log lines reach JS a moment after the failure they explain. */
const NATIVE_LOG_GRACE_MS = 30;

/** A completion slower than this per output token is stopped (a setting overrides it). */
export const DEFAULT_TOKEN_BUDGET_MS = 10_000;

/** \`json_object\` as a schema, for the answer side of a calls-or-answer grammar. */
const ANY_JSON_OBJECT = { type: 'object', additionalProperties: true } as const;
/**
 * What a raw completion evaluates: its prompt (and what a resume continues); with a suffix, the
 * model's FIM tokens around prompt and suffix, as LlamaCompletion's infill lays them out.
 */
function rawPromptTokens(model: LlamaModel, raw: NonNullable<GenerateRequest['raw']>, continuation: string | undefined): Token[] {
  const text = raw.prompt + (continuation ?? '');
  if (raw.suffix === undefined) return model.tokenize(text, true);
  const { prefix, suffix, middle } = model.tokens.infill;
  const marks = (token: Token | null): Token[] => (token === null ? [] : [token]);
  return [...marks(prefix), ...model.tokenize(text, false), ...marks(suffix), ...model.tokenize(raw.suffix, false), ...marks(middle)];
}

/**
 * How a request's tools are generated: a forced call as JSON under its grammar (that text is the
 * call, not an answer); tools beside a format as one grammar for either; else the functions
 * LlamaChat offers the model in its prompt.
 */
function toolShape(request: Pick<GenerateRequest, 'tools' | 'format'>): {
  forced: JsonSchemaObject | null;
  either: JsonSchemaObject | null;
  shaped: JsonSchemaObject | null;
  functions: ChatModelFunctions | undefined;
} {
  const tools = request.tools;
  const forced = tools ? forcedCallSchema(tools) : null;
  const answerShape = request.format?.type === 'json_schema' ? request.format.schema : request.format ? ANY_JSON_OBJECT : null;
  const either = tools && !forced && answerShape ? callsOrAnswerSchema(tools, answerShape) : null;
  const shaped = forced ?? either;
  return { forced, either, shaped, functions: tools && !shaped ? chatFunctions(tools) : undefined };
}

/** What one completion runs on: its chat wrapper (per reasoning effort), sequence and prompt. */
interface RunOn {
  wrapper: ChatWrapper;
  sequence: LlamaContextSequence;
  history: ChatHistoryItem[];
  inputTokens: number;
  /** Whether the model thinks (its wrapper reads thought segments). */
  thinks: boolean;
}

export class LlamaEngine implements Engine {
  private llamaPromise: Promise<Llama> | null = null;
  /** The models in memory (or loading), by id. */
  private readonly slots = new Map<string, ModelSlot>();
  /** Disposal of unloaded models; a load waits for it so the memory it counts on is free. */
  private retiring: Promise<void> = Promise.resolve();
  /** Loads run one at a time, so each sees what the previous one took. */
  private loading: Promise<void> = Promise.resolve();
  private uses = 0;
  private loadsStarted = 0;
  private readonly closing = new AbortController();
  private closePromise: Promise<void> | null = null;
  /** Recent llama.cpp error lines, used to explain a failed load in one sentence. */
  private nativeErrors: string[] = [];
  /** Grammars by their format, made once: making one is a parse of the schema and a native object. */
  private readonly grammars = new Map<string, Promise<LlamaGrammar>>();

  constructor(private readonly options: EngineOptions) {
    if (!Number.isInteger(options.concurrency) || options.concurrency < 1) {
      throw new RangeError(`concurrency must be a positive integer, got ${options.concurrency}.`);
    }
  }

  async load(modelId: string, modelPath: string, signal?: AbortSignal, settings: LoadSettings = {}): Promise<void> {
    this.assertOpen();
    let slot = this.slots.get(modelId);
    if (!slot?.serves(modelId, modelPath, settings)) {
      if (slot) this.retire(slot);
      slot = this.newSlot(modelId, modelPath, settings);
    }
    // The load itself is shared with other callers, so an abort only stops this caller's wait.
    await untilAborted(slot.ready, signal);
  }

  async unload(modelId: string): Promise<boolean> {
    const slot = this.slots.get(modelId);
    if (!slot) return false;
    this.retire(slot);
    await this.retiring;
    return true;
  }

  /** Model loads begun since the engine started (a bench and a test count reloads with it). */
  loads(): number {
    return this.loadsStarted;
  }

  loadedModels(): LoadedModelInfo[] {
    return [...this.slots.values()]
      .sort((a, b) => b.lastUsed - a.lastUsed)
      .map((slot) => slot.info())
      .filter((info) => info !== null);
  }

  loadedModel(): string | null {
    return this.loadedModels()[0]?.id ?? null;
  }

  countTokens(modelId: string, text: string, as: TokensOf = 'text'): number {
    const { model, chatWrapper } = this.loadedOf(modelId);
    if (as !== 'text') return thoughtTokenCount(model, chatWrapper, text, as === 'ended-thought');
    // Counted as text inside the conversation, hence without the leading space SentencePiece adds.
    return model.tokenize(text, false, 'trimLeadingSpace').length;
  }

  promptTokens(modelId: string, messages: ChatMessage[], shape: Pick<GenerateRequest, 'tools' | 'format'> = {}): number {
    return promptTokensOf(this.loadedOf(modelId), toHistory(messages, undefined), undefined, toolShape(shape).functions).length;
  }

  contextSize(modelId: string): number {
    return this.loadedOf(modelId).context.contextSize;
  }

  infills(modelId: string): boolean {
    const { infill } = this.loadedOf(modelId).model.tokens;
    return infill.prefix != null && infill.suffix != null;
  }

  thinks(modelId: string): boolean {
    return this.loadedOf(modelId).reasoning.thinks;
  }

  private loadedOf(modelId: string): Loaded {
    const loaded = this.slots.get(modelId)?.loaded;
    if (!loaded) throw new Error(`Model ${modelId} is not loaded, so its tokens cannot be counted.`);
    return loaded;
  }

  async generate(request: GenerateRequest): Promise<GenerateResult> {
    this.assertOpen();
    const signal = AbortSignal.any([request.signal, this.closing.signal]);
    const aborted = (inputTokens: number): GenerateResult => ({ text: '', inputTokens, outputTokens: 0, stopReason: 'abort' });

    let slot: ModelSlot;
    try {
      slot = await this.beginOn(request.modelId, request.modelPath, request.load ?? {}, signal);
    } catch (err) {
      if (signal.aborted) return aborted(0);
      throw err;
    }
    const { loaded, pool } = slot;
    let sequence: LlamaContextSequence | null = null;
    try {
      if (!loaded || !pool) throw new Error('internal: model slot started without a loaded model');
      const history = toHistory(request.messages, request.continuation, request.continuationThought);
      const wrapper = loaded.reasoning.wrapperFor(request.reasoningEffort);
      // A raw completion's prompt is its text, and what a resume continues is appended to it.
      const prompt = request.raw
        ? rawPromptTokens(loaded.model, request.raw, request.continuation)
        : promptTokensOf(loaded, history, wrapper, toolShape(request).functions);
      // node-llama-cpp reads maxTokens 0 as "no limit".
      if (request.maxTokens <= 0) return { text: '', inputTokens: prompt.length, outputTokens: 0, stopReason: 'max_tokens' };

      sequence = await pool.acquire(prompt, signal);
      if (!sequence) return aborted(prompt.length);
      // LlamaChat keeps what the sequence holds up to the first token that differs (and always
      // evaluates the prompt's last token again, to have its logits).
      const cachedTokens = Math.min(sequence.compareContextTokens(prompt).firstDifferentIndex, Math.max(0, prompt.length - 1));
      // What differs is erased here, at once, rather than by LlamaChat after its own setup: an erase
      // waits for the context's batch loop to go idle, and requests arriving together then all erase
      // before the first of them starts that loop (else the last one waits for the others' answers).
      if (sequence.nextTokenIndex > cachedTokens) await sequence.eraseContextTokenRanges([{ start: cachedTokens, end: sequence.nextTokenIndex }]);
      const started = performance.now();
      const meter = sequence.tokenMeter.usedInputTokens;
      const on = { wrapper, sequence, history, inputTokens: prompt.length, thinks: loaded.reasoning.thinks };
      const result = request.raw ? await this.runCompletion(request, request.raw, signal, on) : await this.run(request, signal, on);
      if (result.outputTokens > 0) slot.lastTokensPerSecond = result.outputTokens / ((performance.now() - started) / 1000);
      return { ...result, cachedTokens, evaluatedTokens: sequence.tokenMeter.usedInputTokens - meter };
    } catch (err) {
      // What a failed evaluation left in the sequence is not trusted for the next request.
      if (sequence) await sequence.clearHistory().catch(() => undefined);
      throw err;
    } finally {
      if (sequence) pool?.release(sequence);
      this.end(slot);
    }
  }

  async embed(request: EmbedRequest): Promise<EmbedResult> {
    this.assertOpen();
    const signal = AbortSignal.any([request.signal, this.closing.signal]);
    const slot = await this.beginOn(request.modelId, request.modelPath, request.load ?? {}, signal);
    try {
      return await embedOn(slot, request, signal, this.options.threads);
    } finally {
      this.end(slot);
    }
  }

  async rank(request: RankRequest): Promise<RankResult> {
    this.assertOpen();
    const signal = AbortSignal.any([request.signal, this.closing.signal]);
    const slot = await this.beginOn(request.modelId, request.modelPath, request.load ?? {}, signal);
    try {
      return await rankOn(slot, request, signal, this.options.threads);
    } finally {
      this.end(slot);
    }
  }

  async close(): Promise<void> {
    this.closePromise ??= (async () => {
      this.closing.abort();
      for (const slot of [...this.slots.values()]) this.retire(slot);
      await this.retiring;
      const llama = await this.llamaPromise?.catch(() => null);
      if (llama) await settleWithin(llama.dispose(), BACKEND_DISPOSE_TIMEOUT_MS);
    })();
    return this.closePromise;
  }

  /** A raw completion, or a fill in the middle: the text as it is, through LlamaCompletion. */
  private async runCompletion(request: GenerateRequest, raw: NonNullable<GenerateRequest['raw']>, signal: AbortSignal, on: RunOn): Promise<GenerateResult> {
    const completion = new LlamaCompletion({ contextSequence: on.sequence });
    const budget = new TokenBudget(this.options.tokenBudgetMs ?? DEFAULT_TOKEN_BUDGET_MS, on.inputTokens);
    const stopped = AbortSignal.any([signal, budget.signal]);
    let emitted = '';
    let outputTokens = 0;
    const options = {
      onTextChunk: (delta: string): void => {
        if (delta === '') return;
        emitted += delta;
        request.onText(delta);
      },
      onToken: (tokens: Token[]): void => {
        outputTokens += tokens.length;
        budget.tokens(tokens.length);
      },
      signal: stopped,
      stopOnAbortSignal: true,
      maxTokens: request.maxTokens,
      repeatPenalty: false as const,
      ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
      ...(request.topP !== undefined ? { topP: request.topP } : {}),
      ...(request.topK !== undefined ? { topK: request.topK } : {}),
      ...(request.seed !== undefined ? { seed: request.seed } : {}),
      ...(request.stop && request.stop.length > 0 ? { customStopTriggers: request.stop } : {}),
    };
    const prompt = raw.prompt + (request.continuation ?? '');
    try {
      if (raw.suffix !== undefined && !completion.infillSupported)
        throw new CompletionFailure(`Model ${request.modelId} cannot fill in the middle (it has no FIM tokens); leave suffix out.`, 'infill_not_supported');
      const result =
        raw.suffix !== undefined
          ? await completion.generateInfillCompletionWithMeta(prompt, raw.suffix, options)
          : await completion.generateCompletionWithMeta(prompt, options);
      if (budget.spent && !signal.aborted)
        throw new CompletionFailure(
          `The completion took longer than its budget of ${budget.perTokenMs / 1000} s per output token and was stopped.`,
          'generation_too_slow',
        );
      if (result.response.startsWith(emitted)) options.onTextChunk(result.response.slice(emitted.length));
      return { text: emitted, inputTokens: on.inputTokens, outputTokens, stopReason: toStopReason(result.metadata.stopReason) };
    } catch (err) {
      if (err instanceof CompletionFailure) throw err;
      if (signal.aborted) return { text: emitted, inputTokens: on.inputTokens, outputTokens, stopReason: 'abort' };
      throw new Error(`Completion with model ${request.modelId} failed: ${firstLine(err)}.`);
    } finally {
      budget.stop();
      completion.dispose({ disposeSequence: false });
    }
  }

  private async run(request: GenerateRequest, signal: AbortSignal, on: RunOn): Promise<GenerateResult> {
    const { wrapper, sequence, history, inputTokens } = on;
    const tools = request.tools;
    const { forced, either, shaped, functions } = toolShape(request);
    const format = shaped ? { type: 'json_schema' as const, schema: shaped } : request.format;
    const grammar = format ? await this.grammarFor(format) : undefined;
    const chat = new LlamaChat({ contextSequence: sequence, chatWrapper: wrapper });
    const budget = new TokenBudget(this.options.tokenBudgetMs ?? DEFAULT_TOKEN_BUDGET_MS, inputTokens);
    const stopped = AbortSignal.any([signal, budget.signal]);
    let emitted = '';
    let outputTokens = 0;
    const thinking = new ThinkingTally();
    const emit = (delta: string): void => {
      if (delta === '') return;
      emitted += delta;
      // Under a call's grammar the text is JSON for the engine to read, not yet the answer.
      if (!shaped) request.onText(delta);
    };
    // Thought segments (and Harmony's comments) are thinking, never answer or call text.
    const onResponseChunk = (chunk: LlamaChatResponseChunk): void => {
      if (chunk.type === 'segment') {
        thinking.add(chunk.text, chunk.tokens.length);
        // onToken reports only the answer's tokens: thinking costs output tokens and time too.
        outputTokens += chunk.tokens.length;
        budget.tokens(chunk.tokens.length);
        if (chunk.text !== '') request.onReasoning?.(chunk.text);
      } else emit(chunk.text);
    };
    const effort = request.reasoningEffort;
    const thoughtBudget = on.thinks && effort !== undefined ? THOUGHT_BUDGET[effort] : undefined;
    const tooSlow = (): CompletionFailure =>
      new CompletionFailure(
        `The completion took longer than its budget of ${budget.perTokenMs / 1000} s per output token and was stopped; a schema with fewer choices (enum values, alternatives) runs faster.`,
        'generation_too_slow',
      );
    try {
      // When the history ends with a model item, LlamaChat continues that response instead of
      // opening a new one, and `response` holds only the newly generated text.
      const result = await chat.generateResponse(history, {
        onResponseChunk,
        ...(thoughtBudget !== undefined ? { budgets: { thoughtTokens: thoughtBudget, commentTokens: thoughtBudget } } : {}),
        onToken: (tokens) => {
          outputTokens += tokens.length;
          budget.tokens(tokens.length);
        },
        signal: stopped,
        stopOnAbortSignal: true,
        maxTokens: request.maxTokens,
        temperature: request.temperature,
        topP: request.topP,
        ...(request.topK !== undefined ? { topK: request.topK } : {}),
        // OpenAI-style defaults (no penalty), and a resume then continues exactly like an
        // uninterrupted run: node-llama-cpp would only penalise tokens of this call, not the
        // continuation.
        repeatPenalty: false,
        ...(functions ? { functions, ...(tools?.parallel === false ? { maxParallelFunctionCalls: 1 } : {}) } : grammar ? { grammar } : {}),
        ...(request.stop && request.stop.length > 0 ? { customStopTriggers: request.stop } : {}),
        ...(request.seed !== undefined ? { seed: request.seed } : {}),
      });
      if (budget.spent && !signal.aborted) throw tooSlow();
      // Anything held back by stop-trigger detection and not streamed yet still reaches onText.
      if (result.response.startsWith(emitted)) emit(result.response.slice(emitted.length));
      const stopReason = toStopReason(result.metadata.stopReason);
      const stopSequence =
        result.metadata.stopReason === 'customStopTrigger' ? result.metadata.customStopTrigger.filter((p) => typeof p === 'string').join('') : '';
      const base = { inputTokens, outputTokens, stopReason, ...(stopSequence !== '' ? { stopSequence } : {}), ...thinking.result() };
      if (tools && forced) return { ...base, text: '', calls: [forcedCall(tools, result.response)] };
      if (either) {
        const made = callsOrAnswer(emitted);
        if ('calls' in made && made.calls.length > 0) return { ...base, text: '', calls: made.calls };
        const answer = 'answer' in made ? made.answer : '';
        if (answer !== '') request.onText(answer);
        return { ...base, text: answer };
      }
      const calls = (result.functionCalls ?? []).map((c) => ({ name: c.functionName, arguments: JSON.stringify(c.params ?? {}) }));
      return { ...base, text: emitted, ...(calls.length > 0 ? { calls } : {}) };
    } catch (err) {
      if (err instanceof CompletionFailure) throw err;
      // Aborted before the first token, node-llama-cpp throws the abort reason instead.
      if (signal.aborted) return { text: emitted, inputTokens, outputTokens, stopReason: 'abort', ...thinking.result() };
      if (budget.spent) throw tooSlow();
      throw new Error(`Completion with model ${request.modelId} failed: ${firstLine(err)}.`);
    } finally {
      budget.stop();
      chat.dispose({ disposeSequence: false });
    }
  }

  /** Makes the model ready (loading it if needed) and counts a completion on it. */
  private async beginOn(modelId: string, modelPath: string, settings: LoadSettings, signal: AbortSignal): Promise<ModelSlot> {
    for (;;) {
      try {
        await this.load(modelId, modelPath, signal, settings);
      } catch (err) {
        if (err instanceof SupersededError) continue;
        throw err;
      }
      const slot = this.slots.get(modelId);
      // The model may have been unloaded between the load and now: then load it again.
      if (slot?.serves(modelId, modelPath, settings) && slot.loaded) {
        slot.active++;
        slot.lastUsed = ++this.uses;
        slot.clearIdleTimer();
        return slot;
      }
    }
  }

  private end(slot: ModelSlot): void {
    slot.active--;
    slot.lastUsed = ++this.uses;
    if (slot.active > 0) return;
    void slot.pool?.keepOneEmpty();
    slot.notifyDrained();
    if (this.slots.get(slot.modelId) === slot) this.armIdleTimer(slot);
  }

  private armIdleTimer(slot: ModelSlot): void {
    const ms = this.options.idleUnloadMs;
    if (!Number.isFinite(ms)) return;
    slot.clearIdleTimer();
    slot.idleTimer = setTimeout(
      () => {
        if (this.slots.get(slot.modelId) === slot && slot.active === 0) this.retire(slot);
      },
      Math.max(0, ms),
    );
    // An idle model must not keep the process alive.
    slot.idleTimer.unref();
  }

  private newSlot(modelId: string, modelPath: string, settings: LoadSettings): ModelSlot {
    const slot = new ModelSlot(modelId, modelPath, settings);
    const previous = this.loading;
    slot.ready = (async () => {
      await previous.catch(() => undefined);
      if (this.slots.get(modelId) !== slot || this.closing.signal.aborted) throw superseded(modelId);
      const llama = await this.getLlamaOnce();
      // The header is read once: it says the file is a model and how long a context it was trained for.
      const contextSize = contextOf(trainedContext(await this.checkedHeader(modelId, modelPath)), settings.contextSize ?? this.options.contextSize);
      const gpuLayers = this.options.gpu === false ? 0 : settings.gpuLayers;
      const need = await memoryNeed(llama, modelPath, contextSize, typeof gpuLayers === 'number' ? gpuLayers : 0).catch(() => null);
      const budget = this.options.memoryBudgetBytes ?? defaultMemoryBudget();
      const firstBytes = need ? need.modelBytes + (await need.contextBytes(1)) : 0;
      this.makeRoom(slot, budget - firstBytes);
      // Checked in the same tick as the wait below: a slot still in the map has no retirement of
      // its own in that chain (retire() takes it out first), so the wait cannot wait for itself.
      if (this.slots.get(modelId) !== slot || this.closing.signal.aborted) throw superseded(modelId);
      await this.retiring;
      const plan = need
        ? await sequencesThatFit(need, budget - this.usedBytes(slot), this.options.concurrency)
        : { sequences: this.options.concurrency, bytes: 0 };
      this.loadsStarted++;
      const loaded = await this.loadModel(modelId, modelPath, settings, contextSize, plan.sequences);
      if (this.slots.get(modelId) !== slot || this.closing.signal.aborted) {
        await disposeLoaded(loaded);
        throw superseded(modelId);
      }
      sampleOneAtATime(loaded.context);
      const sequences = Array.from({ length: plan.sequences }, () => loaded.context.getSequence());
      slot.pool = new SequencePool(sequences);
      slot.loaded = loaded;
      slot.memoryBytes = plan.bytes;
      slot.loadedAt = unixSeconds(systemClock);
      slot.lastUsed = ++this.uses;
      this.armIdleTimer(slot);
    })();
    this.loading = slot.ready.catch(() => undefined);
    slot.ready.catch(() => {
      if (this.slots.get(modelId) === slot) this.slots.delete(modelId);
    });
    this.slots.set(modelId, slot);
    return slot;
  }

  /** Bytes the other loaded models take. */
  private usedBytes(except: ModelSlot): number {
    let used = 0;
    for (const slot of this.slots.values()) if (slot !== except && slot.loaded) used += slot.memoryBytes;
    return used;
  }

  /** Unloads the least recently used other models (idle ones first) until `bytes` are left for `slot`. */
  private makeRoom(slot: ModelSlot, bytes: number): void {
    for (;;) {
      if (this.usedBytes(slot) <= bytes) return;
      const others = [...this.slots.values()].filter((s) => s !== slot && s.loaded);
      const victim = others.filter((s) => s.active === 0).sort((a, b) => a.lastUsed - b.lastUsed)[0] ?? others.sort((a, b) => a.lastUsed - b.lastUsed)[0];
      if (!victim) return;
      this.retire(victim);
    }
  }

  /** Unloads a model, once its running completions are done. */
  private retire(slot: ModelSlot): void {
    slot.clearIdleTimer();
    if (this.slots.get(slot.modelId) === slot) this.slots.delete(slot.modelId);
    const previous = this.retiring;
    this.retiring = (async () => {
      await previous;
      await slot.ready.catch(() => undefined);
      await slot.drained();
      const { loaded } = slot;
      slot.loaded = null;
      slot.pool = null;
      if (loaded) await disposeLoaded(loaded);
    })();
  }

  /** The file's GGUF header, or a one-sentence ModelLoadError saying why it is not a model. */
  private async checkedHeader(modelId: string, modelPath: string): Promise<GgufHeaderInfo> {
    try {
      return await readGgufHeader(modelPath);
    } catch (err) {
      if (err instanceof NotGgufError) throw loadFailure(modelId, err.message.replace(/\.$/, ''));
      throw loadFailure(modelId, `${modelPath} cannot be read (${firstLine(err)})`);
    }
  }

  private async loadModel(modelId: string, modelPath: string, settings: LoadSettings, contextSize: number, sequences: number): Promise<Loaded> {
    const fail = (reason: string): ModelLoadError => loadFailure(modelId, reason);
    const llama = await this.getLlamaOnce();
    this.nativeErrors = [];
    let model: LlamaModel;
    try {
      // No GPU at all (gpu: false) wins over a model's own GPU layers.
      model = await llama.loadModel({ modelPath, gpuLayers: this.options.gpu === false ? 0 : (settings.gpuLayers ?? 'auto') });
    } catch (err) {
      throw fail(`llama.cpp rejected ${modelPath} (${await this.nativeReason(err)})`);
    }
    try {
      const context = await model.createContext({ sequences, contextSize });
      const chatWrapper = chatWrapperFor(model);
      return { model, context, chatWrapper, reasoning: new ReasoningWrappers(model, chatWrapper) };
    } catch (err) {
      await model.dispose().catch(() => undefined);
      throw fail(`no context could be created (${await this.nativeReason(err)})`);
    }
  }

  private grammarFor(format: NonNullable<GenerateRequest['format']>): Promise<LlamaGrammar> {
    const key = format.type === 'json_object' ? 'json' : JSON.stringify(format.schema);
    let grammar = this.grammars.get(key);
    if (!grammar) {
      grammar = this.getLlamaOnce().then((llama) =>
        format.type === 'json_object'
          ? llama.getGrammarFor('json')
          : // The schema is JSON inside the subset contract/json-schema.ts admits, which is what
            // GbnfJsonSchema describes; its deeply readonly literal types cannot be reached from a
            // parsed request without this cast.
            // eslint-disable-next-line @typescript-eslint/consistent-type-assertions -- see above
            llama.createGrammarForJsonSchema<GbnfJsonSchema>(format.schema as GbnfJsonSchema),
      );
      grammar.catch(() => this.grammars.delete(key));
      // A few hundred schemas at most in practice; a client that sends a new one per call must not grow this forever.
      if (this.grammars.size >= 256) this.grammars.delete(this.grammars.keys().next().value ?? '');
      this.grammars.set(key, grammar);
    }
    return grammar;
  }

  private getLlamaOnce(): Promise<Llama> {
    if (!this.llamaPromise) {
      const attempt = getLlama({
        gpu: this.options.gpu,
        build: 'never',
        maxThreads: this.options.threads,
        logLevel: LlamaLogLevel.error,
        progressLogs: false,
        // llama.cpp's errors are kept for our own one-sentence messages instead of being printed.
        logger: (level, message) => {
          if (level !== LlamaLogLevel.error && level !== LlamaLogLevel.fatal) return;
          this.nativeErrors.push(message.trim());
          if (this.nativeErrors.length > 20) this.nativeErrors.shift();
        },
      }).catch((err: unknown) => {
        this.llamaPromise = null;
        throw new Error(`The llama.cpp backend could not start: ${firstLine(err)}.`);
      });
      this.llamaPromise = attempt;
    }
    return this.llamaPromise;
  }

  /** The most telling llama.cpp error line for a failure, else the JS error's own message. */
  private async nativeReason(err: unknown): Promise<string> {
    await new Promise((resolve) => setTimeout(resolve, NATIVE_LOG_GRACE_MS));
    // llama.cpp says "llama_model_load: error loading model: <why>", then generic lines.
    for (const line of this.nativeErrors) {
      const why = /error loading model(?: architecture)?: (.+)$/.exec(line)?.[1];
      if (why) return why.trim().replace(/\.$/, '');
    }
    const last = this.nativeErrors.at(-1)?.replace(/^\w+: /, '');
    return last ? last.replace(/\.$/, '') : firstLine(err);
  }

  private assertOpen(): void {
    if (this.closing.signal.aborted) throw new Error('The engine is closed.');
  }
}

function loadFailure(modelId: string, reason: string): ModelLoadError {
  return new ModelLoadError(`Could not load model ${modelId}: ${reason}.`);
}

/** `{arch}.context_length` of a model's metadata, or null when it does not say. */
function trainedContext(header: GgufHeaderInfo): number | null {
  const arch = header.metadata['general.architecture'];
  const trained = typeof arch === 'string' ? header.metadata[`${arch}.context_length`] : undefined;
  return typeof trained === 'number' && trained > 0 ? trained : null;
}

function superseded(modelId: string): SupersededError {
  return new SupersededError(`Loading model ${modelId} was cancelled because it was unloaded meanwhile.`);
}

async function disposeLoaded(loaded: Loaded): Promise<void> {
  await loaded.context.dispose().catch(() => undefined);
  await loaded.model.dispose().catch(() => undefined);
}
