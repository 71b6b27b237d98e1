// The messages of a conversation in a scrolling region: opened at the newest, older pages loaded
// on demand at the top (the place being read stays where it is), and the newest line kept in view
// while a reply streams in, unless the person has scrolled up to read. Each message is laid out
// only when near the screen (content-visibility in chat.css), so a long conversation stays smooth.
import { useCallback, useEffect, useLayoutEffect, useRef, type ReactNode } from 'react';
import { useStrings } from '../../i18n/i18n';
import { chatStrings } from './strings';

export interface MessageListProps {
  /** A key of what is shown: its first and last message ids and how many. */
  shape: string;
  firstId: string | null;
  hasEarlier: boolean;
  loadingEarlier: boolean;
  onEarlier: () => void;
  children: ReactNode;
}

const NEAR_BOTTOM_PX = 96;

export function useKeepBottom(): {
  ref: React.RefObject<HTMLDivElement | null>;
  keepBottom: () => void;
  onScroll: () => void;
  stuck: React.RefObject<boolean>;
} {
  const ref = useRef<HTMLDivElement | null>(null);
  const stuck = useRef(true);
  const onScroll = useCallback(() => {
    const el = ref.current;
    if (el) stuck.current = el.scrollHeight - el.scrollTop - el.clientHeight < NEAR_BOTTOM_PX;
  }, []);
  const keepBottom = useCallback(() => {
    const el = ref.current;
    if (el && stuck.current) el.scrollTop = el.scrollHeight;
  }, []);
  return { ref, keepBottom, onScroll, stuck };
}

export function MessageList({
  shape,
  firstId,
  hasEarlier,
  loadingEarlier,
  onEarlier,
  children,
  keep,
}: MessageListProps & { keep: ReturnType<typeof useKeepBottom> }) {
  const { t } = useStrings(chatStrings);
  const { ref, keepBottom, onScroll } = keep;
  // Before older messages are put above, how far the view is from the bottom: kept after.
  const anchor = useRef<{ firstId: string | null; fromBottom: number } | null>(null);
  const earlier = (): void => {
    const el = ref.current;
    if (el) anchor.current = { firstId, fromBottom: el.scrollHeight - el.scrollTop };
    onEarlier();
  };
  useLayoutEffect(() => {
    const el = ref.current;
    const a = anchor.current;
    if (el && a && a.firstId !== firstId) {
      el.scrollTop = el.scrollHeight - a.fromBottom;
      anchor.current = null;
      return;
    }
    keepBottom();
  }, [shape, firstId, keepBottom, ref]);
  // Messages grow after they are put in (a streamed reply, Markdown laid out, a message first laid
  // out as it comes near the screen): the newest line stays in view through all of it.
  const list = useRef<HTMLOListElement | null>(null);
  useEffect(() => {
    if (list.current === null || typeof ResizeObserver === 'undefined') return undefined;
    const observer = new ResizeObserver(() => keepBottom());
    observer.observe(list.current);
    return () => observer.disconnect();
  }, [keepBottom]);
  return (
    <div className="chat-scroll" ref={ref} onScroll={onScroll} tabIndex={0} role="region" aria-label={t('messages')} data-testid="chat-scroll">
      {hasEarlier && (
        <button type="button" className="chat-earlier" onClick={earlier} disabled={loadingEarlier} data-testid="chat-earlier">
          {t('earlier')}
        </button>
      )}
      <ol className="chat-messages" ref={list} data-testid="chat-messages">
        {children}
      </ol>
    </div>
  );
}
