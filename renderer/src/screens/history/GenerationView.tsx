// Inside one generation, from the Backups screen (#/backups/<repo>:<generation>): what it holds,
// its responses (searchable, paged newest first) with where each stands in the live data, a
// "Bring back" button on each (a deleted one asks first: it undoes a deletion), what changed since
// in the live data, and the record of what was brought back. The first read of a generation takes
// a moment (restic restores its store); the progress arrives as generation.progress events.
import { useState } from 'react';
import { ErrorNote } from '../../components/ErrorNote';
import { ProgressBar } from '../../components/ProgressBar';
import { href } from '../../app/routes';
import { formatDateTime, formatNumber, formatRelative } from '../../i18n/format';
import { useStrings } from '../../i18n/i18n';
import { useLiveProgress } from '../use-live-progress';
import { useBringBacks, useGenerationDiff, useGenerationResponses, useGenerationSummary, type GenerationSummary } from './api';
import { BringBackButton } from './BringBackButton';
import { DiffList } from './DiffList';
import { GenerationConversations } from './GenerationConversations';
import { SearchForm } from './SearchForm';
import { StatusBadge } from '../tasks/StatusBadge';
import { TaskStatus } from '../tasks/api';
import { historyStrings } from './strings';
import './history.css';

function Reading({ repo }: { repo: string }) {
  const { t } = useStrings(historyStrings);
  const p = useLiveProgress('generation');
  const phase = typeof p?.phase === 'string' ? p.phase : 'manifest';
  const done = typeof p?.bytes_done === 'number' ? p.bytes_done : undefined;
  const total = typeof p?.bytes_total === 'number' ? p.bytes_total : undefined;
  const step = phase === 'downloading' || phase === 'verifying' || phase === 'opening' || phase === 'manifest' ? t(`phase_${phase}`) : t('phase_manifest');
  return (
    <div className="card" data-testid="generation-reading" aria-live="polite">
      <ProgressBar
        label={t('reading', { repo })}
        value={{
          fraction: done !== undefined && total ? done / total : null,
          step,
          ...(done !== undefined ? { bytesDone: done } : {}),
          ...(total !== undefined ? { bytesTotal: total } : {}),
        }}
      />
    </div>
  );
}

function Counts({ s }: { s: GenerationSummary }) {
  const { t, language } = useStrings(historyStrings);
  const n = (v: number) => formatNumber(language, v);
  const items: Array<[string, string]> = [
    [t('tasks'), n(s.counts.tasks)],
    [t('responses'), n(s.counts.responses)],
    [t('events'), n(s.counts.events)],
    [t('clients'), `${n(s.counts.clients)}${s.counts.clients_revoked > 0 ? ` (${t('revoked', { count: n(s.counts.clients_revoked) })})` : ''}`],
    [t('models'), n(s.counts.models)],
    [t('conversations'), n(s.counts.conversations)],
    [t('journal'), n(s.journal_entries)],
  ];
  return (
    <section className="card" aria-labelledby="generation-holds">
      <h2 id="generation-holds">{t('holds')}</h2>
      <p className="muted">
        {t('made', {
          date: formatDateTime(language, Date.parse(s.created_at) / 1000),
          host: s.host,
          version: s.app_version,
          store: s.store_version,
          snapshot: s.snapshot_id.slice(0, 8),
          repo: s.repo,
        })}
      </p>
      <dl className="generation-counts" data-testid="generation-counts">
        {items.map(([k, v]) => (
          <div key={k}>
            <dt>{k}</dt>
            <dd>{v}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

/** A stored task's state in words (the tasks screen's badge); a state this GUI does not know as it is. */
function statusOf(status: string | null) {
  if (status === null) return '—';
  const known = TaskStatus.safeParse(status);
  return known.success ? <StatusBadge status={known.data} /> : <code>{status}</code>;
}

function Responses({ repo, generation }: { repo: string; generation: number }) {
  const { t, language } = useStrings(historyStrings);
  const [q, setQ] = useState('');
  const [pages, setPages] = useState<string[]>([]);
  const after = pages.at(-1) ?? null;
  const list = useGenerationResponses(repo, generation, q, after, true);
  const data = list.data;
  return (
    <section className="card" aria-labelledby="generation-responses">
      <h2 id="generation-responses">{t('responses')}</h2>
      <SearchForm
        label={t('search')}
        hint={t('searchHint')}
        testId="generation-search"
        foundTestId="generation-found"
        // The previous search's rows stay while the next loads; its count must not be said for the new words.
        found={data && q && !list.isPlaceholderData ? data.total : null}
        onSearch={(words) => {
          setQ(words);
          setPages([]);
        }}
      />
      {list.error && <ErrorNote error={list.error} onRetry={() => void list.refetch()} />}
      <div className="table-wrap">
        <table data-testid="generation-responses">
          <thead>
            <tr>
              <th scope="col">{t('asked')}</th>
              <th scope="col">{t('answered')}</th>
              <th scope="col">{t('status')}</th>
              <th scope="col">{t('live')}</th>
              <th scope="col">
                <span className="visually-hidden">{t('bringBack')}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {list.isPending && (
              <tr>
                <td colSpan={5}>
                  <span className="skeleton" />
                </td>
              </tr>
            )}
            {data?.data.length === 0 && (
              <tr>
                <td colSpan={5} className="muted">
                  {q ? t('none') : t('empty')}
                </td>
              </tr>
            )}
            {data?.data.map((r) => (
              <tr key={r.id} data-response={r.id} data-live={r.live}>
                <td className="preview" title={r.input_preview}>
                  <bdi>{r.input_preview}</bdi>
                  <div className="muted small mono">
                    <bdi dir="ltr">{r.id}</bdi> · {formatDateTime(language, r.created_at)}
                  </div>
                </td>
                <td className="preview" title={r.output_preview}>
                  <bdi>{r.output_preview}</bdi>
                </td>
                <td>{statusOf(r.status)}</td>
                <td className={r.live === 'deleted' ? 'warn' : r.live === 'absent' ? 'muted' : ''}>{t(`live_${r.live}`)}</td>
                <td>
                  <BringBackButton repo={repo} generation={generation} item={r} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <div className="row">
        {pages.length > 0 && (
          <button type="button" onClick={() => setPages([])}>
            {t('first')}
          </button>
        )}
        {data?.has_more && (
          <button type="button" data-testid="generation-more" onClick={() => setPages((p) => [...p, data.data.at(-1)?.id ?? ''])}>
            {t('more')}
          </button>
        )}
      </div>
    </section>
  );
}

function Compare({ repo, generation }: { repo: string; generation: number }) {
  const { t } = useStrings(historyStrings);
  const [shown, setShown] = useState(false);
  const diff = useGenerationDiff(repo, generation, shown);
  return (
    <section className="card" aria-labelledby="generation-compare">
      <h2 id="generation-compare">{t('compare')}</h2>
      {!shown && (
        <button type="button" data-testid="generation-compare" onClick={() => setShown(true)}>
          {t('compareShow')}
        </button>
      )}
      {diff.isFetching && <span className="skeleton" />}
      {diff.error && <ErrorNote error={diff.error} onRetry={() => void diff.refetch()} />}
      {diff.data && <DiffList diff={diff.data} />}
    </section>
  );
}

function Record() {
  const { t, language } = useStrings(historyStrings);
  const rows = useBringBacks();
  return (
    <section className="card" aria-labelledby="bring-back-record">
      <h2 id="bring-back-record">{t('record')}</h2>
      {rows.error && <ErrorNote error={rows.error} onRetry={() => void rows.refetch()} />}
      {rows.data?.length === 0 && <p className="muted">{t('recordEmpty')}</p>}
      <ul className="plain-list" data-testid="bring-back-record">
        {rows.data?.map((r, i) => (
          <li key={`${r.response_id}-${r.at}-${i}`}>
            {t('recordLine', {
              id: r.response_id,
              date: formatDateTime(language, r.generation),
              repo: r.repo,
              by: r.by === 'gui' ? t('byGui') : r.by === 'cli' ? t('byCli') : r.by,
              when: formatRelative(language, r.at),
            })}
            {r.undeleted && (
              <>
                {' '}
                <span className="badge">{t('recordUndeleted')}</span>
              </>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}

export function GenerationView({ repo, generation }: { repo: string; generation: number }) {
  const { t, language } = useStrings(historyStrings);
  const summary = useGenerationSummary(repo, generation);
  return (
    <div className="recovery-screen" data-testid="generation-view">
      <p>
        <a href={href('backups')}>{t('back')}</a>
      </p>
      <h1>{t('title', { date: formatDateTime(language, generation) })}</h1>
      {summary.isPending && <Reading repo={repo} />}
      {summary.error && <ErrorNote error={summary.error} onRetry={() => void summary.refetch()} />}
      {summary.data && (
        <>
          <Counts s={summary.data} />
          <GenerationConversations repo={repo} generation={generation} />
          <Responses repo={repo} generation={generation} />
          <Compare repo={repo} generation={generation} />
        </>
      )}
      <Record />
    </div>
  );
}
