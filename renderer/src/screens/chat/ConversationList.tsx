// The list of conversations beside the open one: the one used last first, searched by title and
// by words said (the API's `q`), paged ("show more"). Each entry names its title, model and when
// its last message was made.
import { useDeferredValue, useState } from 'react';
import { href } from '../../app/routes';
import { ErrorNote } from '../../components/ErrorNote';
import { formatRelative } from '../../i18n/format';
import { useStrings } from '../../i18n/i18n';
import { useConversationList } from './api';
import { settingsFrom } from './chat-settings';
import { chatStrings } from './strings';

export function ConversationList({ current }: { current: string | null }) {
  const { t, language } = useStrings(chatStrings);
  const [search, setSearch] = useState('');
  const q = useDeferredValue(search);
  const list = useConversationList(q);
  const rows = list.data?.pages.flatMap((p) => p.data) ?? [];
  return (
    <nav className="chat-list card" aria-label={t('list')}>
      <a className="button primary chat-new" href={href('chat')} aria-current={current === null ? 'page' : undefined} data-testid="chat-new">
        {t('newConversation')}
      </a>
      <label htmlFor="chat-search">{t('search')}</label>
      <input
        id="chat-search"
        type="search"
        value={search}
        placeholder={t('searchHint')}
        onChange={(e) => setSearch(e.target.value)}
        data-testid="chat-search"
      />
      {list.isError && <ErrorNote error={list.error} onRetry={() => void list.refetch()} />}
      {list.isPending && <span className="skeleton" aria-hidden="true" />}
      {list.isSuccess && rows.length === 0 && <p className="muted">{q.trim() === '' ? t('none') : t('noMatches', { q })}</p>}
      <ul className="chat-list-items" data-testid="chat-list">
        {rows.map((c) => {
          const s = settingsFrom(c.metadata);
          return (
            <li key={c.id}>
              <a href={href('chat', c.id)} aria-current={c.id === current ? 'page' : undefined} data-testid="chat-list-item" data-id={c.id}>
                <span className="chat-list-title" dir="auto">
                  {s.title === '' ? t('untitled') : s.title}
                </span>
                <span className="chat-list-meta muted">
                  {s.model !== '' && (
                    <>
                      <span dir="ltr">{s.model}</span> ·{' '}
                    </>
                  )}
                  {t('lastMessage', { when: formatRelative(language, c.updated_at) })}
                </span>
              </a>
            </li>
          );
        })}
      </ul>
      {list.hasNextPage && (
        <button type="button" onClick={() => void list.fetchNextPage()} disabled={list.isFetchingNextPage} data-testid="chat-list-more">
          {t('more')}
        </button>
      )}
    </nav>
  );
}
