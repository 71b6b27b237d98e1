// Runs queued tasks on the engine, a configurable number at a time. It never writes task state
// itself: every change goes through the ledger's compare-and-set, so a cancel accepted at any
// moment wins over a completion that arrives a moment later.
import { CompletionFailure, type ChatMessage, type Engine } from '../engine/engine.js';
import { completionShape, shapeBroken, type CompletionShape } from './completion-shape.js';
import { loadSettingsOf, ModelUnavailableError, type ModelResolver, type RunSettings } from '../engine/model-resolver.js';
import type { Logger } from '../log/logger.js';
import type { Db } from '../store/open.js';
import { FairQueue } from './fair-queue.js';
import { isWriteFailure } from '../store/disk.js';
import type { TaskLedger, TransitionChange, TransitionResult } from './ledger.js';
import { answersWithMessage, inputItems, itemNames } from './items.js';
import { newId } from '../ids.js';
import type { FunctionCallItem } from '../contract/responses.js';
import { earlierItems, fitToContext, TurnFailure } from './turn-context.js';
import { emittedReasoning, emittedText, getResponseRow, getTask, reasoningHasEnded, tasksInStatus } from './queries.js';
import { parseRequest } from './response-object.js';
import type { ResponseRequest, ResponseRow, TaskRow } from './types.js';
import { startEvents } from './item-events.js';
import { AnswerStream } from './answer-stream.js';

export interface RunnerOptions {
  concurrency: number;
  defaultMaxOutputTokens: number;
  /** First wait before a transition that failed to commit is tried again (doubles up to 5 s). */
  retryMs?: number;
}

/** The runner is stopping: a transition that could not commit is left for the next start. */
class Stopping extends Error {}

export class TaskRunner {
  private readonly queue = new FairQueue();
  private readonly active = new Map<string, AbortController>();
  private readonly done = new Set<Promise<void>>();
  private stopping = false;
  private readonly wakeups = new Set<() => void>();

  constructor(
    private readonly db: Db,
    private readonly ledger: TaskLedger,
    private readonly engine: Engine,
    private readonly models: ModelResolver,
    private readonly logger: Logger,
    private readonly options: RunnerOptions,
  ) {}

  /** Picks up what recovery left to run: resumed `running` tasks first, then `queued` ones. */
  start(): void {
    for (const t of tasksInStatus(this.db, ['running'])) this.queue.push(t.client_id ?? '', t.id);
    for (const t of tasksInStatus(this.db, ['queued'])) this.queue.push(t.client_id ?? '', t.id);
    this.pump();
  }

  enqueue(task: TaskRow): void {
    if (this.stopping) return;
    this.queue.push(task.client_id ?? '', task.id);
    this.pump();
  }

  /**
   * Called after a cancel was accepted (status now `cancelling` or `cancelled`). Stops a running
   * completion; a task still waiting in the queue is finished here as it never started.
   */
  cancelAccepted(taskId: string): void {
    const controller = this.active.get(taskId);
    if (controller) return controller.abort();
    if (this.queue.remove(taskId)) {
      this.track(
        taskId,
        this.commit(taskId, CANCELLED).then(() => undefined),
      );
    }
  }

  runningCount(): number {
    return this.active.size;
  }

  queuedCount(): number {
    return this.queue.size;
  }

  /**
   * Stops generating and waits for the workers. Task states are left as they are, with text
   * emitted so far committed: the next start applies each task's `on_restart` policy.
   */
  async stop(): Promise<void> {
    this.stopping = true;
    for (const c of this.active.values()) c.abort();
    for (const wake of [...this.wakeups]) wake();
    await Promise.allSettled([...this.done]);
    if (!this.ledger.flush()) this.ledger.stopTimer();
  }

  /**
   * A transition that must not be lost. A commit that fails for the storage's sake (the disk is
   * full) is tried again, waiting longer each time, until it commits: the task is never left
   * half-way, and its SSE readers get its events (the terminal one too) once it does. Only a
   * stop ends the wait; then the next start's recovery (LMSP §11.3) settles the task.
   */
  private async commit(taskId: string, change: TransitionChange): Promise<TransitionResult> {
    let wait = this.options.retryMs ?? 250;
    let warned = false;
    for (;;) {
      if (this.stopping) throw new Stopping();
      try {
        const result = this.ledger.transition(taskId, change);
        if (warned) this.logger.info('task transition committed after retrying', { task_id: taskId, to: change.to });
        return result;
      } catch (err) {
        if (!isWriteFailure(err)) throw err;
        if (!warned) this.logger.warn('task transition could not be written; retrying', { task_id: taskId, to: change.to, error: String(err) });
        warned = true;
        await this.sleep(wait);
        wait = Math.min(wait * 2, 5000);
      }
    }
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const wake = (): void => {
        clearTimeout(timer);
        this.wakeups.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, ms);
      this.wakeups.add(wake);
    });
  }

  private track(taskId: string, work: Promise<void>): void {
    const run = work
      .catch((err: unknown) => {
        if (!(err instanceof Stopping)) this.logger.error('task runner failed', { task_id: taskId, error: String(err) });
      })
      .finally(() => this.done.delete(run));
    this.done.add(run);
  }

  private pump(): void {
    while (!this.stopping && this.active.size < this.options.concurrency) {
      const taskId = this.queue.shift();
      if (taskId === undefined) return;
      const controller = new AbortController();
      this.active.set(taskId, controller);
      this.track(
        taskId,
        this.execute(taskId, controller.signal).finally(() => {
          this.active.delete(taskId);
          this.pump();
        }),
      );
    }
  }

  private async execute(taskId: string, signal: AbortSignal): Promise<void> {
    const task = getTask(this.db, taskId);
    if (!task) return;
    const resuming = task.status === 'running';
    if (!resuming) {
      const loading = await this.commit(taskId, { from: ['queued'], to: 'loading', events: [{ type: 'response.loading' }] });
      if (!loading.ok) return;
    }
    try {
      const { path, settings } = await this.models.resolveForRun(task.model);
      const load = loadSettingsOf(settings);
      await this.engine.load(task.model, path, signal, load);
      if (this.stopping) return;
      if (signal.aborted) return await this.finishCancelled(taskId);
      // What can fail before the model begins (too long for its context, an earlier turn deleted
      // meanwhile) fails before \`response.in_progress\`: a foreground door answers it as an HTTP error.
      const prepared = this.prepare(task, settings);
      if (!resuming) {
        const running = await this.commit(taskId, { from: ['loading'], to: 'running', events: startEvents(this.db, task, prepared.thinks) });
        if (!running.ok) return await this.finishCancelled(taskId);
      }
      await this.generate(task, prepared, path, settings, signal);
    } catch (err) {
      if (this.stopping || err instanceof Stopping) return;
      const code = err instanceof ModelUnavailableError || err instanceof TurnFailure || err instanceof CompletionFailure ? err.code : 'engine_error';
      const message = err instanceof Error ? err.message : String(err);
      this.ledger.discardPending(taskId);
      const failed = await this.commit(taskId, {
        from: ['loading', 'running'],
        to: 'failed',
        error: { code, message },
        events: [{ type: 'response.failed', withResponse: true }],
      });
      if (!failed.ok) await this.finishCancelled(taskId);
    }
  }

  /** The request as it will run: its messages fitted into the model's context, its limit. */
  private prepare(task: TaskRow, settings: RunSettings): Prepared {
    const response = getResponseRow(this.db, task.response_id);
    if (!response) throw new Error(`The response of task ${task.id} is missing from the store.`);
    const request = parseRequest(response);
    // The request's own values first, then the model's settings, then the appliance's default.
    const maxOutputTokens = request.max_output_tokens ?? settings.maxOutputTokens ?? this.options.defaultMaxOutputTokens;
    const shape = completionShape(request);
    // A raw completion has no chat to fit: its prompt must fit as it is.
    if (request.completion) return this.prepareCompletion(task, response, request, request.completion, maxOutputTokens, shape);
    // The earlier turns, then this one, fitted into the model's context (truncation).
    const { messages, dropped } = fitToContext({
      instructions: request.instructions,
      items: [...earlierItems(this.db, response), ...inputItems(request)],
      truncation: request.truncation ?? 'disabled',
      // With the tools the model is offered: their signatures are part of the prompt.
      countTokens: (m) => this.engine.promptTokens(task.model, m, shape.engine),
      contextSize: this.engine.contextSize(task.model),
      maxOutputTokens,
      model: task.model,
      door: request.api === undefined ? 'responses' : 'chat',
    });
    const effort = request.reasoning_effort;
    const canThink = this.engine.thinks(task.model);
    // Claude Code asks for thinking whatever the model: on the Messages door a model that cannot
    // think answers without, as a model without extended thinking would.
    if (effort !== undefined && effort !== 'none' && !canThink && request.api !== 'anthropic.messages') {
      const param = request.api === 'chat.completions' ? 'reasoning_effort' : 'reasoning.effort';
      throw new TurnFailure('reasoning_not_supported', `Model ${task.model} does not think before it answers; leave ${param} out or set it to none.`);
    }
    const thinks = canThink && effort !== 'none';
    return { response, request, maxOutputTokens, messages, dropped, shape, thinks };
  }

  private prepareCompletion(
    task: TaskRow,
    response: Prepared['response'],
    request: Prepared['request'],
    completion: NonNullable<Prepared['request']['completion']>,
    maxOutputTokens: number,
    shape: Prepared['shape'],
  ): Prepared {
    if (completion.suffix !== undefined && !this.engine.infills(task.model))
      throw new TurnFailure('infill_not_supported', `Model ${task.model} cannot fill in the middle (its vocabulary has no FIM tokens); leave suffix out.`);
    const contextSize = this.engine.contextSize(task.model);
    const tokens = this.engine.countTokens(task.model, completion.prompt + (completion.suffix ?? ''));
    // Room kept for the answer, as for a chat: its own limit, at most a quarter of the context.
    const limit = contextSize - Math.min(maxOutputTokens, Math.floor(contextSize / 4));
    if (tokens > limit)
      throw new TurnFailure(
        'context_length_exceeded',
        `The prompt is ${tokens} tokens, and model ${task.model} holds ${contextSize} in its context (${limit} for the prompt); shorten it or ask for fewer max_tokens.`,
      );
    return { response, request, maxOutputTokens, messages: [], dropped: 0, shape, thinks: false };
  }

  private async generate(task: TaskRow, prepared: Prepared, path: string, settings: RunSettings, signal: AbortSignal): Promise<void> {
    const { response, request, maxOutputTokens, messages, dropped, shape, thinks } = prepared;
    const temperature = request.temperature ?? settings.temperature ?? null;
    const continuation = emittedText(this.db, task.id);
    // A resumed attempt: the thought and the text it had committed, which completion continues.
    const thought = thinks ? emittedReasoning(this.db, task.id) : '';
    const thoughtEnded = reasoningHasEnded(this.db, task.id);
    const thoughtTokens = thought ? this.engine.countTokens(task.model, thought, thoughtEnded ? 'ended-thought' : 'thought') : 0;
    const usedTokens = (continuation ? this.engine.countTokens(task.model, continuation) : 0) + thoughtTokens;
    const budget = maxOutputTokens - usedTokens;
    const names = itemNames(response.id);
    const withMessage = answersWithMessage(request);
    const stream = new AnswerStream(
      this.ledger,
      task.id,
      { messageId: response.item_id, reasoningId: names.reasoning, withMessage, thinks },
      { thought, thoughtEnded },
    );
    const result =
      budget > 0
        ? await this.engine.generate({
            modelId: task.model,
            modelPath: path,
            load: loadSettingsOf(settings),
            messages,
            ...(continuation ? { continuation } : {}),
            ...(request.completion ? { raw: request.completion } : {}),
            ...(thought ? { continuationThought: thought } : {}),
            ...(request.reasoning_effort ? { reasoningEffort: request.reasoning_effort } : {}),
            maxTokens: budget,
            ...shape.engine,
            ...(request.stop ? { stop: request.stop } : {}),
            ...(request.seed !== undefined ? { seed: request.seed } : {}),
            ...(temperature !== null ? { temperature } : {}),
            ...(request.top_p !== null ? { topP: request.top_p } : {}),
            ...(request.top_k !== undefined ? { topK: request.top_k } : {}),
            signal,
            onText: (delta) => stream.text(delta),
            onReasoning: (delta) => stream.reasoning(delta),
          })
        : { text: '', inputTokens: 0, outputTokens: 0, stopReason: 'max_tokens' as const };
    if (this.stopping) return void this.ledger.flush();
    if (result.stopReason === 'abort') return this.finishCancelled(task.id);
    const text = continuation + result.text;
    const cutShort = result.stopReason === 'max_tokens';
    // An answer cut short is `incomplete` anyway; a finished one must keep its schema.
    const broken = cutShort ? null : shapeBroken(shape, { text, ...(result.calls ? { calls: result.calls } : {}) });
    if (broken !== null) return this.failAfterGenerating(task.id, 'output_schema_mismatch', broken);
    const calls: FunctionCallItem[] = (result.calls ?? []).map((c, k) => ({
      type: 'function_call',
      id: names.call(k),
      call_id: newId('call'),
      name: c.name,
      arguments: c.arguments,
      status: cutShort ? 'incomplete' : 'completed',
    }));
    const completed = await this.commit(task.id, {
      from: ['running'],
      to: 'completed',
      output: {
        text,
        // The engine counts a resumed continuation as prompt; it is output already counted above.
        inputTokens: Math.max(0, result.inputTokens - usedTokens),
        cachedTokens: Math.min(result.cachedTokens ?? 0, Math.max(0, result.inputTokens - usedTokens)),
        outputTokens: usedTokens + result.outputTokens,
        incompleteReason: result.stopReason === 'max_tokens' ? 'max_output_tokens' : null,
        truncatedItems: dropped,
        calls,
        reasoning: stream.item(cutShort ? 'incomplete' : 'completed'),
        reasoningTokens: thoughtTokens + (result.reasoningTokens ?? 0),
        stopSequence: result.stopSequence ?? null,
      },
      events: [...stream.doneEvents(text, calls), { type: 'response.completed', withResponse: true }],
    });
    if (!completed.ok) await this.finishCancelled(task.id);
  }

  /** The answer was generated but cannot stand (it breaks its schema): the task fails with why. */
  private async failAfterGenerating(taskId: string, code: 'output_schema_mismatch', message: string): Promise<void> {
    this.ledger.flush();
    const failed = await this.commit(taskId, {
      from: ['running'],
      to: 'failed',
      error: { code, message },
      events: [{ type: 'response.failed', withResponse: true }],
    });
    if (!failed.ok) await this.finishCancelled(taskId);
  }

  /** A cancel was accepted while this worker ran: it ends `cancelled`, never `completed`. */
  private async finishCancelled(taskId: string): Promise<void> {
    if (this.stopping) return;
    await this.commit(taskId, CANCELLED);
  }
}

interface Prepared {
  response: ResponseRow;
  request: ResponseRequest;
  maxOutputTokens: number;
  messages: ChatMessage[];
  dropped: number;
  shape: CompletionShape;
  /** The model thinks in this request (it can, and the effort is not none). */
  thinks: boolean;
}

const CANCELLED: TransitionChange = { from: ['cancelling'], to: 'cancelled', events: [{ type: 'response.cancelled', withResponse: true }] };
