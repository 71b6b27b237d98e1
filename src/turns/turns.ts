// The one path of a model request, whatever door it came in by (Responses, Chat Completions, and
// the doors to come): what the turn names is checked and resolved, its limits against the model,
// then the task is created (its first event and any idempotent answer in the same commit) and
// queued. The door gets a Turn to wait on, to stream, or to cancel when its client leaves; it only
// parses its own shape before and renders its own shape after.
import type { Clock } from '../clock.js';
import type { InputItem, StoredItem } from '../contract/responses.js';
import type { ModelRegistry } from '../engine/registry.js';
import type { ReadableDB, WritableDB } from '../store/open.js';
import type { Settings } from '../store/settings.js';
import type { CreateBatcher } from '../tasks/create-batcher.js';
import type { EventHub } from '../tasks/event-hub.js';
import type { InTransaction, TaskLedger } from '../tasks/ledger.js';
import { buildResponseObject } from '../tasks/response-object.js';
import type { DeletionRecorder } from '../tasks/retention.js';
import type { TaskRunner } from '../tasks/runner.js';
import type { OnRestart, ResponseRequest } from '../tasks/types.js';
import { TurnError } from './errors.js';
import { checkConversation, checkPrevious, resolveInput, type DeletedWhy, type MayRead } from './resolve.js';
import { Turn } from './turn.js';

export interface TurnsDeps {
  db: ReadableDB;
  writer: WritableDB;
  ledger: TaskLedger;
  creates: CreateBatcher;
  runner: TaskRunner;
  hub: EventHub;
  models: Pick<ModelRegistry, 'exists' | 'contextCap' | 'kindOf'>;
  deletions: DeletionRecorder & { read(): ReadonlyArray<{ kind: string; id: string; why: string }> };
  clock: Clock;
  settings: () => Settings;
}

/** A model request as every door hands it over. */
export interface TurnAsk {
  clientId: string | null;
  /** May the caller read what that client made (item references, earlier turns)? */
  mayRead: MayRead;
  /** May the caller change what that client made (add a turn to its conversation)? */
  mayChange: MayRead;
  model: string;
  input: string | InputItem[];
  /** The request as the ledger keeps it, given this turn's input resolved. */
  keep: (input: StoredItem[]) => ResponseRequest;
  /** The output limit asked for, and the name this door gives it (for the error). */
  maxOutputTokens: number | null;
  maxOutputParam: string;
  /**
   * A limit above what the model's context holds is taken as that size instead of refused (the
   * Messages door: Claude Code asks 32,000 of any model, as Ollama and LM Studio allow).
   */
  capToContext?: boolean;
  metadata: Record<string, string> | null;
  previousResponseId: string | null;
  conversationId: string | null;
  background: boolean;
  store: boolean;
  onRestart: OnRestart | null;
  /** Runs inside the create's commit: an idempotent answer is committed with the task itself. */
  inCommit?: InTransaction;
}

export class Turns {
  constructor(private readonly deps: TurnsDeps) {}

  /** Checks, creates and queues the turn; throws TurnError (a 4xx) before anything is written. */
  async accept(ask: TurnAsk): Promise<Turn> {
    const { db } = this.deps;
    const cap = this.checkModel(ask);
    // What the turn names must exist and be the caller's to read, before anything is written.
    if (ask.previousResponseId !== null) checkPrevious(db, ask.previousResponseId, ask.mayRead, this.deletedWhy);
    if (ask.conversationId !== null) checkConversation(db, ask.conversationId, ask.mayRead, ask.mayChange);
    const input = resolveInput(db, ask.input, ask.mayRead);
    const settings = this.deps.settings();
    const { task, response } = await this.deps.creates.create(
      {
        clientId: ask.clientId,
        model: ask.model,
        request: cap === null ? ask.keep(input) : { ...ask.keep(input), max_output_tokens: cap },
        metadata: ask.metadata,
        previousResponseId: ask.previousResponseId,
        conversationId: ask.conversationId,
        background: ask.background,
        store: ask.store,
        onRestart: ask.onRestart ?? settings.default_on_restart,
      },
      ask.inCommit,
    );
    const turn = new Turn(this.deps, task, response, buildResponseObject(response, task, ''), ask.store, ask.background);
    this.deps.runner.enqueue(task);
    return turn;
  }

  private readonly deletedWhy: DeletedWhy = (id) => this.deps.deletions.read().find((d) => d.kind === 'response' && d.id === id)?.why;

  /**
   * The model is registered, and the output asked for fits in its context; returns the context's
   * size when the limit is to be capped to it, else null.
   */
  private checkModel(ask: TurnAsk): number | null {
    const cap = this.deps.models.contextCap(ask.model);
    if (cap === null) throw new TurnError('model_not_found', 'model', `The model "${ask.model}" is not registered here; see GET /v1/models.`);
    const kind = this.deps.models.kindOf(ask.model);
    if (kind === 'embedding')
      throw new TurnError(
        'model_not_generative',
        'model',
        `Model ${ask.model} is an embedding model (its file declares a pooling type): it makes vectors, not text. Use it with POST /v1/embeddings, or choose a model that writes.`,
      );
    if (kind === 'rerank')
      throw new TurnError(
        'model_not_generative',
        'model',
        `Model ${ask.model} is a reranker: it scores documents against a query, it does not write. Use it with POST /v1/rerank, or choose a model that writes.`,
      );
    if (ask.maxOutputTokens !== null && ask.maxOutputTokens > cap) {
      if (ask.capToContext === true) return cap;
      throw new TurnError(
        'max_output_tokens_too_large',
        ask.maxOutputParam,
        `${ask.maxOutputParam} is ${ask.maxOutputTokens}, but model ${ask.model} holds ${cap} tokens in its context, input included; ask for ${cap} or fewer.`,
      );
    }
    return null;
  }
}
