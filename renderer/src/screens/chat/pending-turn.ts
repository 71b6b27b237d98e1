// The turn a conversation is waiting for, kept in the tab's sessionStorage: a reload (or leaving the
// screen and coming back) while the reply is being made picks its task up again and goes on
// streaming it, and a turn that failed or was stopped can still be retried. The store is the
// record of what was said: this only remembers which task to watch, never the words of the reply.
import { z } from 'zod/v3';

export const PendingTurn = z.object({
  conversationId: z.string(),
  taskId: z.string(),
  responseId: z.string(),
  /** What the person sent, to retry it. */
  text: z.string(),
  /** When it was sent (ms since the epoch), for the time to the reply's first words. */
  sentAt: z.number().optional(),
});
export type PendingTurn = z.infer<typeof PendingTurn>;

const key = (conversationId: string): string => `sanad.chat.pending.${conversationId}`;

export function readPending(conversationId: string): PendingTurn | null {
  try {
    const raw = sessionStorage.getItem(key(conversationId));
    const parsed = PendingTurn.safeParse(raw === null ? null : JSON.parse(raw));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

export function writePending(turn: PendingTurn): void {
  sessionStorage.setItem(key(turn.conversationId), JSON.stringify(turn));
}

/** Forgets the turn of `taskId` (or any turn, when none is named): a later turn is left alone. */
export function clearPending(conversationId: string, taskId?: string): void {
  if (taskId !== undefined && readPending(conversationId)?.taskId !== taskId) return;
  sessionStorage.removeItem(key(conversationId));
}
