// What a completion thought, and how many of its tokens that took (OpenAI's reasoning_tokens).

export class ThinkingTally {
  private text = '';
  private tokens = 0;

  add(text: string, tokens: number): void {
    this.text += text;
    this.tokens += tokens;
  }

  /** For a GenerateResult: nothing when the model did not think. */
  result(): { reasoning?: string; reasoningTokens?: number } {
    return this.tokens > 0 || this.text !== '' ? { reasoning: this.text, reasoningTokens: this.tokens } : {};
  }
}
