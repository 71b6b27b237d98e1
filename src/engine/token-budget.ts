// How long one completion may hold its sequence: an allowance for evaluating its prompt, then a
// budget per output token. A request whose every token is slow (a grammar with thousands of
// alternatives to check at each step, say) ends here instead of holding a sequence for minutes
// while other clients wait.

/** Prompt tokens evaluated per output token's budget: prompt evaluation runs batched, far faster. */
const PROMPT_TOKENS_PER_BUDGET = 64;

export class TokenBudget {
  private readonly controller = new AbortController();
  private readonly started = performance.now();
  private readonly allowanceMs: number;
  private produced = 0;
  private readonly timer: NodeJS.Timeout;

  /** `perTokenMs` per output token; the prompt's `promptTokens` get their own allowance first. */
  constructor(
    readonly perTokenMs: number,
    promptTokens: number,
  ) {
    this.allowanceMs = perTokenMs * Math.ceil(Math.max(1, promptTokens) / PROMPT_TOKENS_PER_BUDGET);
    // Checked a few times per token's budget: the check itself is one subtraction.
    this.timer = setInterval(() => this.check(), Math.max(5, Math.min(500, perTokenMs / 4)));
    this.timer.unref();
  }

  /** Aborts when the budget is spent. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  get spent(): boolean {
    return this.controller.signal.aborted;
  }

  tokens(n: number): void {
    this.produced += n;
  }

  stop(): void {
    clearInterval(this.timer);
  }

  private check(): void {
    const allowed = this.allowanceMs + this.perTokenMs * (this.produced + 1);
    if (performance.now() - this.started <= allowed) return;
    this.stop();
    this.controller.abort();
  }
}
