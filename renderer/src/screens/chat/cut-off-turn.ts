// The newest turn, when its reply was cut off at the output limit: what the person asked, and the
// items to delete before it is sent again (the question, the reply, and a thinking model's thought
// between them).
import type { ChatItem } from './api';

export interface CutOffTurn {
  asked: ChatItem;
  itemIds: string[];
}

export function cutOffTurn(items: readonly ChatItem[]): CutOffTurn | null {
  const last = items.at(-1);
  if (last?.status !== 'incomplete' || last.role !== 'assistant') return null;
  let at = items.length - 2;
  while (items[at]?.type === 'reasoning') at--;
  const asked = items[at];
  if (asked?.role !== 'user') return null;
  return { asked, itemIds: items.slice(at).map((i) => i.id) };
}
