// How fast a reply came: the time from sending to its first words, and its tokens per second once
// it wrote (the task's output tokens over the time from first words to the end). Measured in the
// page while it watches the turn, and kept in the tab's sessionStorage by the reply's item id, so
// the reply shows them after it joins the conversation; a reply made elsewhere shows none.
import { z } from 'zod/v3';

export const ReplyStats = z.object({
  firstTextMs: z.number().nullable(),
  tokensPerSecond: z.number().nullable(),
});
export type ReplyStats = z.infer<typeof ReplyStats>;

const key = (itemId: string): string => `sanad.chat.stats.${itemId}`;

/** The stats of one reply, from when it was sent, its first text and its end (ms), and its tokens. */
export function measureReply(sentAt: number | null, firstTextAt: number | null, endedAt: number, outputTokens: number | null): ReplyStats {
  const writing = firstTextAt === null ? 0 : endedAt - firstTextAt;
  return {
    firstTextMs: sentAt !== null && firstTextAt !== null ? Math.max(0, firstTextAt - sentAt) : null,
    // A reply written in under a tenth of a second says nothing reliable about its rate.
    tokensPerSecond: outputTokens !== null && outputTokens > 1 && writing >= 100 ? outputTokens / (writing / 1000) : null,
  };
}

export function saveReplyStats(itemId: string, stats: ReplyStats): void {
  try {
    sessionStorage.setItem(key(itemId), JSON.stringify(stats));
  } catch {
    // A full or refused storage only loses a figure shown for interest.
  }
}

export function readReplyStats(itemId: string): ReplyStats | null {
  try {
    const raw = sessionStorage.getItem(key(itemId));
    const parsed = ReplyStats.safeParse(raw === null ? null : JSON.parse(raw));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

// How long a reply's thought took, kept the same way by its reasoning item's id.
const thoughtKey = (itemId: string): string => `sanad.chat.thought.${itemId}`;

export function saveThoughtSeconds(itemId: string, seconds: number): void {
  try {
    sessionStorage.setItem(thoughtKey(itemId), String(seconds));
  } catch {
    // As above: only a figure shown for interest is lost.
  }
}

export function readThoughtSeconds(itemId: string): number | null {
  try {
    const raw = sessionStorage.getItem(thoughtKey(itemId));
    const seconds = raw === null ? NaN : Number(raw);
    return Number.isFinite(seconds) ? seconds : null;
  } catch {
    return null;
  }
}
