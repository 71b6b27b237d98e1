// One stored item of a conversation: a message (Markdown, its own direction, a copy button and
// "continue in a new conversation from here"), a reasoning model's thought (folded, with the time it
// took when this tab watched it), or a function call another client made and its result, shown
// plainly.
import { useState } from 'react';
import { CopyButton } from '../../components/CopyButton';
import { useStrings } from '../../i18n/i18n';
import { textOf, type ChatItem } from './api';
import { Markdown } from './Markdown';
import { chatStrings } from './strings';
import { readReplyStats, readThoughtSeconds } from './reply-stats';
import { ThoughtBlock } from './ThoughtBlock';
import { formatNumber } from '../../i18n/format';

/** How fast this reply came, when this tab watched it being written. */
function ReplyFigures({ itemId }: { itemId: string }) {
  const { t, language } = useStrings(chatStrings);
  const stats = readReplyStats(itemId);
  if (stats === null || (stats.firstTextMs === null && stats.tokensPerSecond === null)) return null;
  const parts = [
    ...(stats.firstTextMs === null ? [] : [t('firstWords', { seconds: formatNumber(language, stats.firstTextMs / 1000, { maximumFractionDigits: 1 }) })]),
    ...(stats.tokensPerSecond === null ? [] : [t('rate', { rate: formatNumber(language, stats.tokensPerSecond, { maximumFractionDigits: 1 }) })]),
  ];
  return (
    <span className="muted chat-figures" data-testid="chat-reply-figures">
      {parts.join(' · ')}
    </span>
  );
}

/** A message longer than this shows its beginning and a "Show all" (a client can store any size). */
export const SHOWN_CHARS = 20_000;

/** A message's text, the beginning only when it is long, until the person asks for all of it. */
function MessageText({ text, plain }: { text: string; plain: boolean }) {
  const { t, language } = useStrings(chatStrings);
  const [all, setAll] = useState(false);
  const long = text.length > SHOWN_CHARS && !all;
  const shown = long ? text.slice(0, SHOWN_CHARS) : text;
  return (
    <>
      {plain ? (
        <p dir="auto" className="chat-plain">
          {shown}
        </p>
      ) : (
        <Markdown text={shown} copyLabel={t('copyCode')} />
      )}
      {long && (
        <p className="muted" data-testid="chat-message-shortened">
          {t('shownPart')}{' '}
          <button type="button" className="link-button" onClick={() => setAll(true)} data-testid="chat-show-all">
            {t('showAll', { count: formatNumber(language, text.length) })}
          </button>
        </p>
      )}
    </>
  );
}

export interface ChatItemProps {
  item: ChatItem;
  /** Only the newest reply, cut off at its limit, offers Retry. */
  onRetryCutOff: (() => void) | null;
  onContinueFrom: (itemId: string) => void;
  busy: boolean;
}

export function ChatItemView({ item, onRetryCutOff, onContinueFrom, busy }: ChatItemProps) {
  const { t } = useStrings(chatStrings);
  if (item.type === 'function_call' || item.type === 'function_call_output') {
    return (
      <li className="chat-msg tool" data-testid="chat-message" data-role={item.type}>
        <span className="chat-role">{item.type === 'function_call' ? t('call', { name: item.name ?? '' }) : t('callOutput')}</span>
        <pre dir="ltr" className="chat-tool" tabIndex={0}>
          <code>{item.type === 'function_call' ? (item.arguments ?? '') : (item.output ?? '')}</code>
        </pre>
      </li>
    );
  }
  if (item.type === 'reasoning') {
    return (
      <li className="chat-msg assistant thought" data-testid="chat-message" data-role="reasoning" data-id={item.id}>
        <ThoughtBlock text={textOf(item)} thinking={false} seconds={readThoughtSeconds(item.id)} />
      </li>
    );
  }
  if (item.type !== 'message') return null;
  const role = item.role === 'user' ? 'user' : item.role === 'assistant' ? 'assistant' : 'other';
  const text = textOf(item);
  return (
    <li className={`chat-msg ${role}`} data-testid="chat-message" data-role={item.role} data-id={item.id}>
      <span className="chat-role">{role === 'user' ? t('you') : role === 'assistant' ? t('assistant') : t('otherRole')}</span>
      <div className="chat-bubble" dir="auto" data-testid="chat-message-text">
        <MessageText text={text} plain={role === 'user'} />
      </div>
      {item.status === 'incomplete' && (
        <div className="chat-notice warn" data-testid="chat-cut-off">
          <p>{t('cutOff')}</p>
          {onRetryCutOff !== null && (
            <button type="button" onClick={onRetryCutOff} disabled={busy} data-testid="chat-retry-cut-off">
              {t('retry')}
            </button>
          )}
        </div>
      )}
      <div className="chat-actions row">
        {role === 'assistant' && <ReplyFigures itemId={item.id} />}
        <CopyButton value={text} label={t('copyMessage')} />
        <button type="button" className="link-button" onClick={() => onContinueFrom(item.id)} disabled={busy} data-testid="chat-continue-here">
          {t('continueHere')}
        </button>
      </div>
    </li>
  );
}
