// The Engine on llama.cpp through node-llama-cpp 3.21. One model in memory at a time, one context
// with `concurrency` sequences; each generation borrows a sequence and gives it back cleared.
import {
  getLlama,
  LlamaChat,
  LlamaLogLevel,
  type ChatHistoryItem,
  type GbnfJsonSchema,
  type Llama,
  type LlamaContextSequence,
  type LlamaGrammar,
  type LlamaModel,
} from 'node-llama-cpp';
import { firstLine, settleWithin, untilAborted } from './async-waits.js';
import { chatWrapperFor, countPromptTokens, toHistory, toStopReason, type Loaded } from './chat-history.js';
import type { ChatMessage, Engine, EngineOptions, GenerateRequest, GenerateResult, LoadSettings } from './engine.js';
import { NotGgufError, readGgufHeader } from './gguf-header.js';
import { callsOrAnswer, callsOrAnswerSchema, chatFunctions, forcedCall, forcedCallSchema } from './tool-calls.js';
import { ModelSlot } from './model-slot.js';
import { DEFAULT_MAX_CONTEXT } from './model-settings.js';

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

/** \`json_object\` as a schema, for the answer side of a calls-or-answer grammar. */
const ANY_JSON_OBJECT = { type: 'object', additionalProperties: true } as const;

export class LlamaEngine implements Engine {
  private llamaPromise: Promise<Llama> | null = null;
  private slot: ModelSlot | null = null;
  /** Disposal of the previous model; a new load waits for it so two models never overlap. */
  private retiring: Promise<void> = Promise.resolve();
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
    let slot = this.slot;
    if (slot === null || !slot.serves(modelId, modelPath, settings)) slot = this.replaceSlot(modelId, modelPath, settings);
    // The load itself is shared with other callers, so an abort only stops this caller's wait.
    await untilAborted(slot.ready, signal);
  }

  loadedModel(): string | null {
    return this.slot?.loaded ? this.slot.modelId : null;
  }

  countTokens(modelId: string, text: string): number {
    // Counted as text inside the conversation, hence without the leading space SentencePiece adds.
    return this.loadedOf(modelId).model.tokenize(text, false, 'trimLeadingSpace').length;
  }

  promptTokens(modelId: string, messages: ChatMessage[]): number {
    return countPromptTokens(this.loadedOf(modelId), toHistory(messages, undefined));
  }

  contextSize(modelId: string): number {
    return this.loadedOf(modelId).context.contextSize;
  }

  private loadedOf(modelId: string): Loaded {
    const loaded = this.slot?.modelId === modelId ? this.slot.loaded : null;
    if (!loaded) throw new Error(`Model ${modelId} is not loaded, so its tokens cannot be counted.`);
    return loaded;
  }

  async generate(request: GenerateRequest): Promise<GenerateResult> {
    this.assertOpen();
    const signal = AbortSignal.any([request.signal, this.closing.signal]);
    const aborted = (text: string, inputTokens: number, outputTokens: number): GenerateResult => ({ text, inputTokens, outputTokens, stopReason: 'abort' });

    let slot: ModelSlot;
    try {
      slot = await this.beginOn(request.modelId, request.modelPath, request.load ?? {}, signal);
    } catch (err) {
      if (signal.aborted) return aborted('', 0, 0);
      throw err;
    }
    const { loaded } = slot;
    let sequence: LlamaContextSequence | null = null;
    let holdsSequence = false;
    try {
      if (!loaded) throw new Error('internal: model slot started without a loaded model');
      const history = toHistory(request.messages, request.continuation);
      const inputTokens = countPromptTokens(loaded, history);
      // node-llama-cpp reads maxTokens 0 as "no limit".
      if (request.maxTokens <= 0) return { text: '', inputTokens, outputTokens: 0, stopReason: 'max_tokens' };

      holdsSequence = await slot.sequences.acquire(signal);
      if (!holdsSequence) return aborted('', inputTokens, 0);
      sequence = loaded.context.getSequence();
      return await this.run(request, signal, loaded, sequence, history, inputTokens);
    } finally {
      // Disposing the sequence erases its state in the context and returns its id to the pool.
      if (sequence) await sequence.dispose().catch(() => undefined);
      if (holdsSequence) slot.sequences.release();
      this.end(slot);
    }
  }

  async close(): Promise<void> {
    this.closePromise ??= (async () => {
      this.closing.abort();
      const slot = this.slot;
      this.slot = null;
      if (slot) this.retire(slot);
      await this.retiring;
      const llama = await this.llamaPromise?.catch(() => null);
      if (llama) await settleWithin(llama.dispose(), BACKEND_DISPOSE_TIMEOUT_MS);
    })();
    return this.closePromise;
  }

  private async run(
    request: GenerateRequest,
    signal: AbortSignal,
    loaded: Loaded,
    sequence: LlamaContextSequence,
    history: ChatHistoryItem[],
    inputTokens: number,
  ): Promise<GenerateResult> {
    const tools = request.tools;
    // A forced call is generated as JSON under its grammar; that text is the call, not an answer.
    const forced = tools ? forcedCallSchema(tools) : null;
    // Tools the model may call and a format its answer must keep: one grammar for either.
    const answerShape = request.format?.type === 'json_schema' ? request.format.schema : request.format ? ANY_JSON_OBJECT : null;
    const either = tools && !forced && answerShape ? callsOrAnswerSchema(tools, answerShape) : null;
    const shaped = forced ?? either;
    const format = shaped ? { type: 'json_schema' as const, schema: shaped } : request.format;
    const grammar = format ? await this.grammarFor(format) : undefined;
    const functions = tools && !shaped ? chatFunctions(tools) : undefined;
    const chat = new LlamaChat({ contextSequence: sequence, chatWrapper: loaded.chatWrapper });
    let emitted = '';
    let outputTokens = 0;
    const emit = (delta: string): void => {
      if (delta === '') return;
      emitted += delta;
      // Under a call's grammar the text is JSON for the engine to read, not yet the answer.
      if (!shaped) request.onText(delta);
    };
    try {
      // When the history ends with a model item, LlamaChat continues that response instead of
      // opening a new one, and `response` holds only the newly generated text.
      const result = await chat.generateResponse(history, {
        onTextChunk: emit,
        onToken: (tokens) => {
          outputTokens += tokens.length;
        },
        signal,
        stopOnAbortSignal: true,
        maxTokens: request.maxTokens,
        temperature: request.temperature,
        topP: request.topP,
        // OpenAI-style defaults (no penalty), and a resume then continues exactly like an
        // uninterrupted run: node-llama-cpp would only penalise tokens of this call, not the
        // continuation.
        repeatPenalty: false,
        ...(functions ? { functions, ...(tools?.parallel === false ? { maxParallelFunctionCalls: 1 } : {}) } : grammar ? { grammar } : {}),
        ...(request.stop && request.stop.length > 0 ? { customStopTriggers: request.stop } : {}),
        ...(request.seed !== undefined ? { seed: request.seed } : {}),
      });
      // Anything held back by stop-trigger detection and not streamed yet still reaches onText.
      if (result.response.startsWith(emitted)) emit(result.response.slice(emitted.length));
      const stopReason = toStopReason(result.metadata.stopReason);
      if (tools && forced) return { text: '', inputTokens, outputTokens, stopReason, calls: [forcedCall(tools, result.response)] };
      if (either) {
        const made = callsOrAnswer(emitted);
        if ('calls' in made && made.calls.length > 0) return { text: '', inputTokens, outputTokens, stopReason, calls: made.calls };
        const answer = 'answer' in made ? made.answer : '';
        if (answer !== '') request.onText(answer);
        return { text: answer, inputTokens, outputTokens, stopReason };
      }
      const calls = (result.functionCalls ?? []).map((c) => ({ name: c.functionName, arguments: JSON.stringify(c.params ?? {}) }));
      return { text: emitted, inputTokens, outputTokens, stopReason, ...(calls.length > 0 ? { calls } : {}) };
    } catch (err) {
      // Aborted before the first token, node-llama-cpp throws the abort reason instead.
      if (signal.aborted) return { text: emitted, inputTokens, outputTokens, stopReason: 'abort' };
      throw new Error(`Generation with model ${request.modelId} failed: ${firstLine(err)}.`);
    } finally {
      chat.dispose({ disposeSequence: false });
    }
  }

  /** Makes the model current (loading it if needed) and counts a generation on it. */
  private async beginOn(modelId: string, modelPath: string, settings: LoadSettings, signal: AbortSignal): Promise<ModelSlot> {
    for (;;) {
      try {
        await this.load(modelId, modelPath, signal, settings);
      } catch (err) {
        if (err instanceof SupersededError) continue;
        throw err;
      }
      const slot = this.slot;
      // Another caller may have switched models between the load and now: then load again.
      if (slot !== null && slot.serves(modelId, modelPath, settings) && slot.loaded) {
        slot.active++;
        slot.clearIdleTimer();
        return slot;
      }
    }
  }

  private end(slot: ModelSlot): void {
    slot.active--;
    if (slot.active > 0) return;
    slot.notifyDrained();
    if (this.slot === slot) this.armIdleTimer(slot);
  }

  private armIdleTimer(slot: ModelSlot): void {
    const ms = this.options.idleUnloadMs;
    if (!Number.isFinite(ms)) return;
    slot.clearIdleTimer();
    slot.idleTimer = setTimeout(
      () => {
        if (this.slot !== slot || slot.active > 0) return;
        this.slot = null;
        this.retire(slot);
      },
      Math.max(0, ms),
    );
    // An idle model must not keep the process alive.
    slot.idleTimer.unref();
  }

  private replaceSlot(modelId: string, modelPath: string, settings: LoadSettings): ModelSlot {
    const previous = this.slot;
    if (previous) this.retire(previous);
    const retired = this.retiring;
    const slot = new ModelSlot(modelId, modelPath, settings, this.options.concurrency);
    slot.ready = (async () => {
      await retired;
      const loaded = await this.loadModel(modelId, modelPath, settings);
      if (this.slot !== slot || this.closing.signal.aborted) {
        await disposeLoaded(loaded);
        throw new SupersededError(`Loading model ${modelId} was cancelled because another model was requested.`);
      }
      slot.loaded = loaded;
      this.armIdleTimer(slot);
    })();
    slot.ready.catch(() => {
      if (this.slot === slot) this.slot = null;
    });
    this.slot = slot;
    return slot;
  }

  /** Unloads a slot that is no longer current, once its running generations are done. */
  private retire(slot: ModelSlot): void {
    slot.clearIdleTimer();
    const previous = this.retiring;
    this.retiring = (async () => {
      await previous;
      await slot.ready.catch(() => undefined);
      await slot.drained();
      const { loaded } = slot;
      slot.loaded = null;
      if (loaded) await disposeLoaded(loaded);
    })();
  }

  private async loadModel(modelId: string, modelPath: string, settings: LoadSettings): Promise<Loaded> {
    const fail = (reason: string): ModelLoadError => new ModelLoadError(`Could not load model ${modelId}: ${reason}.`);
    try {
      await readGgufHeader(modelPath);
    } catch (err) {
      if (err instanceof NotGgufError) throw fail(err.message.replace(/\.$/, ''));
      throw fail(`${modelPath} cannot be read (${firstLine(err)})`);
    }
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
      const train = model.trainContextSize > 0 ? model.trainContextSize : DEFAULT_MAX_CONTEXT;
      // The model's own setting, else the appliance's, else up to 8192; never beyond its training.
      const wanted = settings.contextSize ?? this.options.contextSize;
      const context = await model.createContext({
        sequences: this.options.concurrency,
        contextSize: wanted ? Math.min(wanted, train) : { max: Math.min(train, DEFAULT_MAX_CONTEXT) },
      });
      return { model, context, chatWrapper: chatWrapperFor(model) };
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

async function disposeLoaded(loaded: Loaded): Promise<void> {
  await loaded.context.dispose().catch(() => undefined);
  await loaded.model.dispose().catch(() => undefined);
}
