// The conversations a generation holds (GET /admin/generations/{g}/conversations): searched by
// title and words, paged, each with where it stands in the live data and "Bring back" (the
// conversation returns with its items and every one of its responses, history/bring-back.ts).
import { useState } from 'react';
import { href } from '../../app/routes';
import { ErrorNote } from '../../components/ErrorNote';
import { formatDateTime, formatNumber } from '../../i18n/format';
import { useStrings } from '../../i18n/i18n';
import { useGenerationConversations } from './api';
import { BringBackButton } from './BringBackButton';
import { SearchForm } from './SearchForm';
import { historyStrings } from './strings';

export function GenerationConversations({ repo, generation }: { repo: string; generation: number }) {
  const { t, language } = useStrings(historyStrings);
  const [q, setQ] = useState('');
  const [pages, setPages] = useState<string[]>([]);
  const list = useGenerationConversations(repo, generation, q, pages.at(-1) ?? null);
  const data = list.data;
  const n = (v: number) => formatNumber(language, v);
  return (
    <section className="card" aria-labelledby="generation-conversations">
      <h2 id="generation-conversations">{t('conversations')}</h2>
      <p className="muted">{t('conversationsHint')}</p>
      <SearchForm
        label={t('conversationsSearch')}
        hint={t('conversationsSearchHint')}
        testId="generation-conversation-search"
        foundTestId="generation-conversation-found"
        // The previous search's rows stay while the next loads; its count must not be said for the new words.
        found={data && q && !list.isPlaceholderData ? data.total : null}
        onSearch={(words) => {
          setQ(words);
          setPages([]);
        }}
      />
      {list.error && <ErrorNote error={list.error} onRetry={() => void list.refetch()} />}
      {list.isPending && <span className="skeleton" />}
      {data?.data.length === 0 && <p className="muted">{q ? t('conversationsNone') : t('conversationsEmpty')}</p>}
      <ul className="plain-list generation-conversations" data-testid="generation-conversations">
        {data?.data.map((c) => (
          <li key={c.id} data-conversation={c.id} data-live={c.live}>
            <strong dir="auto">{c.title ?? t('untitled')}</strong> <span className={c.live === 'deleted' ? 'warn' : 'muted'}>({t(`live_${c.live}`)})</span>
            <div className="muted small">
              {t('conversationLine', { items: n(c.items), responses: n(c.responses), date: formatDateTime(language, c.updated_at) })}
              {c.last_preview !== '' && (
                <>
                  {' · '}
                  <bdi>{c.last_preview}</bdi>
                </>
              )}
            </div>
            <div className="row">
              {c.live === 'present' && <a href={href('chat', c.id)}>{t('openConversation')}</a>}
              <BringBackButton repo={repo} generation={generation} item={c} undeleteQuestion={t('undeleteConversationQuestion')} />
            </div>
          </li>
        ))}
      </ul>
      <div className="row">
        {pages.length > 0 && (
          <button type="button" onClick={() => setPages([])}>
            {t('first')}
          </button>
        )}
        {data?.has_more && (
          <button type="button" onClick={() => setPages((p) => [...p, data.data.at(-1)?.id ?? ''])}>
            {t('more')}
          </button>
        )}
      </div>
    </section>
  );
}
