// Runs queued tasks on the engine, a configurable number at a time. It never writes task state
// itself: every change goes through the ledger's compare-and-set, so a cancel accepted at any
// moment wins over a completion that arrives a moment later.
import type { Engine } from '../engine/engine.js';
import type { Logger } from '../log/logger.js';
import type { Db } from '../store/open.js';
import { FairQueue } from './fair-queue.js';
import type { TaskLedger } from './ledger.js';
import { toChatMessages } from './messages.js';
import { emittedText, getResponseRow, getTask, tasksInStatus } from './queries.js';
import { parseRequest } from './response-object.js';
import type { TaskRow } from './types.js';
import { startEvents, textDoneEvents } from './item-events.js';

/** Finds a model's file for a run, or explains why it cannot be used. */
export interface ModelResolver {
  resolveForRun(modelId: string): Promise<{ path: string }>;
}

export class ModelUnavailableError extends Error {
  constructor(message: string, readonly code: 'model_not_found' | 'model_missing' | 'model_changed') {
    super(message);
    this.name = 'ModelUnavailableError';
  }
}

export interface RunnerOptions {
  concurrency: number;
  defaultMaxOutputTokens: number;
}

export class TaskRunner {
  private readonly queue = new FairQueue();
  private readonly active = new Map<string, AbortController>();
  private readonly done = new Set<Promise<void>>();
  private stopping = false;

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
   * generation; a task still waiting in the queue is finished here as it never started.
   */
  cancelAccepted(taskId: string): void {
    const controller = this.active.get(taskId);
    if (controller) return controller.abort();
    if (this.queue.remove(taskId)) {
      this.ledger.transition(taskId, { from: ['cancelling'], to: 'cancelled', events: [{ type: 'response.cancelled', withResponse: true }] });
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
    await Promise.allSettled([...this.done]);
    this.ledger.flush();
  }

  private pump(): void {
    while (!this.stopping && this.active.size < this.options.concurrency) {
      const taskId = this.queue.shift();
      if (taskId === undefined) return;
      const controller = new AbortController();
      this.active.set(taskId, controller);
      const run = this.execute(taskId, controller.signal)
        .catch((err: unknown) => this.logger.error('task runner failed', { task_id: taskId, error: String(err) }))
        .finally(() => {
          this.active.delete(taskId);
          this.done.delete(run);
          this.pump();
        });
      this.done.add(run);
    }
  }

  private async execute(taskId: string, signal: AbortSignal): Promise<void> {
    const task = getTask(this.db, taskId);
    if (!task) return;
    const resuming = task.status === 'running';
    if (!resuming) {
      const loading = this.ledger.transition(taskId, { from: ['queued'], to: 'loading', events: [{ type: 'response.loading' }] });
      if (!loading.ok) return;
    }
    try {
      const { path } = await this.models.resolveForRun(task.model);
      await this.engine.load(task.model, path, signal);
      if (this.stopping) return;
      if (signal.aborted) return this.finishCancelled(taskId);
      if (!resuming) {
        const running = this.ledger.transition(taskId, { from: ['loading'], to: 'running', events: startEvents(this.db, task) });
        if (!running.ok) return this.finishCancelled(taskId);
      }
      await this.generate(task, path, signal);
    } catch (err) {
      if (this.stopping) return;
      const code = err instanceof ModelUnavailableError ? err.code : 'engine_error';
      const message = err instanceof Error ? err.message : String(err);
      this.ledger.discardPending(taskId);
      const failed = this.ledger.transition(taskId, {
        from: ['loading', 'running'],
        to: 'failed',
        error: { code, message },
        events: [{ type: 'response.failed', withResponse: true }],
      });
      if (!failed.ok) this.finishCancelled(taskId);
    }
  }

  private async generate(task: TaskRow, path: string, signal: AbortSignal): Promise<void> {
    const response = getResponseRow(this.db, task.response_id);
    if (!response) throw new Error(`The response of task ${task.id} is missing from the store.`);
    const request = parseRequest(response);
    const continuation = emittedText(this.db, task.id);
    const usedTokens = continuation ? this.engine.countTokens(task.model, continuation) : 0;
    const budget = (request.max_output_tokens ?? this.options.defaultMaxOutputTokens) - usedTokens;
    const result =
      budget > 0
        ? await this.engine.generate({
            modelId: task.model,
            modelPath: path,
            messages: toChatMessages(request),
            ...(continuation ? { continuation } : {}),
            maxTokens: budget,
            ...(request.temperature !== null ? { temperature: request.temperature } : {}),
            ...(request.top_p !== null ? { topP: request.top_p } : {}),
            signal,
            onText: (delta) => this.ledger.appendDelta(task.id, delta),
          })
        : { text: '', inputTokens: 0, outputTokens: 0, stopReason: 'max_tokens' as const };
    if (this.stopping) return this.ledger.flush();
    if (result.stopReason === 'abort') return this.finishCancelled(task.id);
    const text = continuation + result.text;
    const completed = this.ledger.transition(task.id, {
      from: ['running'],
      to: 'completed',
      output: {
        text,
        // The engine counts a resumed continuation as prompt; it is output already counted above.
        inputTokens: Math.max(0, result.inputTokens - usedTokens),
        outputTokens: usedTokens + result.outputTokens,
        incompleteReason: result.stopReason === 'max_tokens' ? 'max_output_tokens' : null,
      },
      events: [...textDoneEvents(response.item_id, text), { type: 'response.completed', withResponse: true }],
    });
    if (!completed.ok) this.finishCancelled(task.id);
  }

  /** A cancel was accepted while this worker ran: it ends `cancelled`, never `completed`. */
  private finishCancelled(taskId: string): void {
    if (this.stopping) return;
    this.ledger.transition(taskId, { from: ['cancelling'], to: 'cancelled', events: [{ type: 'response.cancelled', withResponse: true }] });
  }
}
