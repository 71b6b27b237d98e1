// The real llama.cpp engine with a hook at each point of a task's life where a fault test wants
// to act: the test fills a real disk there, synchronously, before the runner's next write. The
// model, the generation and the text are real; only the moment is the test's choice.
import type {
  ChatMessage,
  EmbedRequest,
  EmbedResult,
  Engine,
  GenerateRequest,
  GenerateResult,
  LoadedModelInfo,
  LoadSettings,
  RankRequest,
  RankResult,
  TokensOf,
} from '../../src/engine/engine.js';

export type FaultPoint = 'load' | 'delta' | 'abort' | 'done';

export interface Fault {
  point: FaultPoint;
  /** For `load`: the model id; otherwise a marker the request's input contains. */
  match: string;
  /** For `delta`: act after this many pieces of text. */
  afterDeltas?: number;
  act(): void;
}

function inputOf(request: GenerateRequest): string {
  return request.messages.map((m) => m.content).join('\n');
}

export class FaultEngine implements Engine {
  private faults: Fault[] = [];
  /** Generations whose input holds this marker wait here until released (they hold the slot). */
  private readonly holds = new Map<string, Promise<void>>();

  constructor(private readonly inner: Engine) {}

  arm(fault: Fault): void {
    this.faults.push(fault);
  }

  hold(marker: string, until: Promise<void>): void {
    this.holds.set(marker, until);
  }

  private take(point: FaultPoint, matches: (f: Fault) => boolean): Fault | undefined {
    const i = this.faults.findIndex((f) => f.point === point && matches(f));
    if (i < 0) return undefined;
    const [f] = this.faults.splice(i, 1);
    return f;
  }

  async load(modelId: string, modelPath: string, signal?: AbortSignal, settings?: LoadSettings): Promise<void> {
    await this.inner.load(modelId, modelPath, signal, settings);
    this.take('load', (f) => f.match === modelId)?.act();
  }

  async generate(request: GenerateRequest): Promise<GenerateResult> {
    const input = inputOf(request);
    for (const [marker, until] of this.holds) if (input.includes(marker)) await until;
    const delta = this.take('delta', (f) => input.includes(f.match));
    const abort = this.take('abort', (f) => input.includes(f.match));
    let n = 0;
    const result = await this.inner.generate({
      ...request,
      onText: (text) => {
        request.onText(text);
        if (delta && ++n === (delta.afterDeltas ?? 1)) delta.act();
      },
    });
    if (abort && result.stopReason === 'abort') abort.act();
    this.take('done', (f) => input.includes(f.match))?.act();
    return result;
  }

  loadedModel(): string | null {
    return this.inner.loadedModel();
  }

  loadedModels(): LoadedModelInfo[] {
    return this.inner.loadedModels();
  }

  unload(modelId: string): Promise<boolean> {
    return this.inner.unload(modelId);
  }

  infills(modelId: string): boolean {
    return this.inner.infills(modelId);
  }

  embed(request: EmbedRequest): Promise<EmbedResult> {
    return this.inner.embed(request);
  }

  rank(request: RankRequest): Promise<RankResult> {
    return this.inner.rank(request);
  }

  countTokens(modelId: string, text: string, as?: TokensOf): number {
    return this.inner.countTokens(modelId, text, as);
  }

  promptTokens(modelId: string, messages: ChatMessage[], shape?: Pick<GenerateRequest, 'tools' | 'format'>): number {
    return this.inner.promptTokens(modelId, messages, shape);
  }

  contextSize(modelId: string): number {
    return this.inner.contextSize(modelId);
  }

  thinks(modelId: string): boolean {
    return this.inner.thinks(modelId);
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}
