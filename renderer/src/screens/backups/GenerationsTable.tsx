// One repository's generations, newest data first: the generation's own time (its epoch: when the
// data was copied), restic's short snapshot id and the snapshot's time. Asking restic takes a
// moment, so rows keep their height while it answers.
import { ErrorNote } from '../../components/ErrorNote';
import { formatBytes, formatDateTime } from '../../i18n/format';
import { useStrings } from '../../i18n/i18n';
import { href } from '../../app/routes';
import { generationRef } from '../history/generation-ref';
import { useGenerations } from './api';
import { generationStrings } from './strings';
import { isolate } from '../bidi';

export const shortId = (id: string): string => id.slice(0, 8);

export function GenerationsTable({ repo, limit = 10 }: { repo: string; limit?: number }) {
  const { t, language } = useStrings(generationStrings);
  const q = useGenerations(repo);
  return (
    <div className="table-wrap">
      <table data-testid={`generations-${repo}`}>
        <caption className="muted">{t('caption', { repo: isolate(repo) })}</caption>
        <thead>
          <tr>
            <th scope="col">{t('generation')}</th>
            <th scope="col">{t('snapshot')}</th>
            <th scope="col">{t('taken')}</th>
            <th scope="col">{t('size')}</th>
            <th scope="col">
              <span className="visually-hidden">{t('inside')}</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {q.isPending &&
            [0, 1].map((i) => (
              <tr key={i}>
                <td colSpan={5}>
                  <span className="skeleton" />
                </td>
              </tr>
            ))}
          {q.data?.length === 0 && (
            <tr>
              <td colSpan={5} className="muted">
                {t('none')}
              </td>
            </tr>
          )}
          {q.data?.slice(0, limit).map((g, i) => (
            <tr key={`${g.generation}-${g.snapshot_id}`} data-generation={g.generation}>
              <td>
                {formatDateTime(language, g.generation)} {i === 0 && <span className="badge ok">{t('newest')}</span>}
              </td>
              <td>
                <code>{shortId(g.snapshot_id)}</code>
              </td>
              <td>{formatDateTime(language, Date.parse(g.time) / 1000)}</td>
              <td>{g.size_bytes === null ? t('unknown') : formatBytes(language, g.size_bytes)}</td>
              <td>
                <a href={href('backups', generationRef(repo, g.generation))} data-testid={`inside-${repo}-${g.generation}`}>
                  {t('inside')}
                </a>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {q.error && <ErrorNote error={q.error} onRetry={() => void q.refetch()} />}
    </div>
  );
}
