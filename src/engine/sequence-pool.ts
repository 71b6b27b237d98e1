// A loaded model's context sequences, kept between requests: each keeps the tokens it last
// evaluated (a conversation's prompt and answer), so the next turn of that conversation evaluates
// only what is new. A request takes the free sequence whose tokens share the longest prefix with its
// prompt; when none shares enough, an empty one or the least recently used (LlamaChat erases what
// differs).
import type { LlamaContextSequence, Token } from 'node-llama-cpp';

interface Kept {
  sequence: LlamaContextSequence;
  busy: boolean;
  /** When it was last given back (a counter, not a time: only the order matters). */
  lastUsed: number;
}

interface Waiter {
  tokens: Token[];
  grant: (kept: Kept) => void;
}

export class SequencePool {
  private readonly kept: Kept[];
  private waiters: Waiter[] = [];
  private uses = 0;

  constructor(sequences: LlamaContextSequence[]) {
    this.kept = sequences.map((sequence) => ({ sequence, busy: false, lastUsed: 0 }));
  }

  get size(): number {
    return this.kept.length;
  }

  get busy(): number {
    return this.kept.filter((k) => k.busy).length;
  }

  /**
   * The best free sequence for a prompt of these tokens, once one is free (first come, first
   * served), or null if the signal aborts first. Give it back with release().
   */
  acquire(tokens: Token[], signal: AbortSignal): Promise<LlamaContextSequence | null> {
    if (signal.aborted) return Promise.resolve(null);
    if (this.waiters.length === 0) {
      const free = this.pick(tokens);
      if (free) return Promise.resolve(this.hold(free));
    }
    return new Promise((resolve) => {
      const waiter: Waiter = {
        tokens,
        grant: (kept) => {
          signal.removeEventListener('abort', onAbort);
          resolve(this.hold(kept));
        },
      };
      const onAbort = (): void => {
        this.waiters = this.waiters.filter((w) => w !== waiter);
        resolve(null);
      };
      signal.addEventListener('abort', onAbort, { once: true });
      this.waiters.push(waiter);
    });
  }

  release(sequence: LlamaContextSequence): void {
    const kept = this.kept.find((k) => k.sequence === sequence);
    if (!kept) return;
    kept.busy = false;
    kept.lastUsed = ++this.uses;
    const next = this.waiters.shift();
    if (!next) return;
    // The waiter at the head gets the best free sequence for its own prompt.
    const best = this.pick(next.tokens) ?? kept;
    next.grant(best);
  }

  /**
   * Keeps one sequence empty for a new conversation, clearing the least recently used one if none
   * is (with three or more: fewer would keep too few conversations): called when the model goes
   * idle, when clearing is instant. Taking an empty sequence later
   * needs no erase, and an erase while other sequences generate waits for all of them to end.
   */
  async keepOneEmpty(): Promise<void> {
    if (this.kept.length < 3 || this.kept.some((k) => !k.busy && k.sequence.nextTokenIndex === 0)) return;
    const free = this.kept.filter((k) => !k.busy);
    const oldest = free.sort((a, b) => a.lastUsed - b.lastUsed)[0];
    if (!oldest || free.length < 2) return;
    oldest.busy = true;
    try {
      await oldest.sequence.clearHistory();
    } catch {
      // A sequence that cannot be cleared is simply used as it is (LlamaChat erases what differs).
    } finally {
      this.release(oldest.sequence);
    }
  }

  private hold(kept: Kept): LlamaContextSequence {
    kept.busy = true;
    return kept.sequence;
  }

  /**
   * The free sequence to use for `tokens`. A match is one whose tokens share a prefix with them of
   * at least half of what it holds (as llama-server's slot similarity: taking it must not throw
   * away more than it reuses). With the model idle: the longest match, else an empty sequence,
   * else the least recently used. While other sequences generate, one that needs none of its
   * tokens erased comes first (a match it only extends, else an empty one): an erase waits for
   * node-llama-cpp's batch loop to go idle, which is when every other completion has ended.
   */
  private pick(tokens: Token[]): Kept | null {
    let match: Kept | null = null;
    let matchShared = 0;
    let extension: Kept | null = null;
    let empty: Kept | null = null;
    let oldest: Kept | null = null;
    for (const k of this.kept) {
      if (k.busy) continue;
      const held = k.sequence.nextTokenIndex;
      if (held === 0) {
        empty ??= k;
        continue;
      }
      const shared = k.sequence.compareContextTokens(tokens).firstDifferentIndex;
      if (shared > 0 && shared * 2 >= held && shared > matchShared) {
        match = k;
        matchShared = shared;
        // LlamaChat evaluates the prompt's last token again, so a full match still keeps its tokens.
        extension = shared >= held && held < tokens.length ? k : null;
      }
      if (oldest === null || k.lastUsed < oldest.lastUsed) oldest = k;
    }
    if (this.busy > 0) return extension ?? empty ?? match ?? oldest;
    return match ?? empty ?? oldest;
  }
}
