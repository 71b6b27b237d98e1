// The maintenance log: per repository, the last run (when, ok or failed, which steps ran, what
// `forget --prune` removed and kept, the error) and the earlier runs behind a disclosure. "Never
// ran" is said as such, so it never looks like "always succeeds".
import { ErrorNote } from '../../components/ErrorNote';
import { formatDateTime, formatNumber } from '../../i18n/format';
import { useStrings } from '../../i18n/i18n';
import { isolate } from '../bidi';
import { useMaintenance, type MaintenanceEntry } from './api';
import { maintenanceStrings } from './strings';
import { Verbatim } from '../../components/Verbatim';

function EntryText({ entry }: { entry: MaintenanceEntry }) {
  const { t, language } = useStrings(maintenanceStrings);
  const steps = entry.steps.length === 0 ? t('noSteps') : entry.steps.map((s) => t(s)).join(language === 'ar' ? '، ' : ', ');
  return (
    <>
      <div>{t('steps', { steps })}</div>
      {entry.removed !== null && entry.kept !== null && (
        <div className="muted">{t('counts', { removed: formatNumber(language, entry.removed), kept: formatNumber(language, entry.kept) })}</div>
      )}
      {!entry.ok && entry.failed_step && <div className="fail">{t('failedAt', { step: t(entry.failed_step), error: isolate(entry.error ?? '') })}</div>}
    </>
  );
}

export function MaintenanceLog() {
  const { t, language } = useStrings(maintenanceStrings);
  const q = useMaintenance();
  return (
    <section className="card" aria-labelledby="maintenance-title" data-testid="maintenance-log">
      <h2 id="maintenance-title">{t('title')}</h2>
      <p className="muted">{t('intro')}</p>
      {q.error && <ErrorNote error={q.error} onRetry={() => void q.refetch()} />}
      <div className="table-wrap">
        <table>
          <thead>
            <tr>
              <th scope="col">{t('repository')}</th>
              <th scope="col">{t('when')}</th>
              <th scope="col">{t('result')}</th>
              <th scope="col">{t('detail')}</th>
            </tr>
          </thead>
          <tbody>
            {q.isPending && (
              <tr>
                <td colSpan={4}>
                  <span className="skeleton" />
                </td>
              </tr>
            )}
            {q.data?.data.map((repo) => (
              <tr key={repo.repository}>
                <th scope="row">
                  <Verbatim>{repo.repository}</Verbatim>
                </th>
                <td>{repo.last ? formatDateTime(language, repo.last.finished_at) : <span className="muted">{t('never')}</span>}</td>
                <td>{repo.last && <span className={repo.last.ok ? 'badge ok' : 'badge fail'}>{repo.last.ok ? t('ok') : t('failed')}</span>}</td>
                <td>
                  {repo.last && <EntryText entry={repo.last} />}
                  {repo.due_after !== null && <div className="muted">{t('due', { date: formatDateTime(language, repo.due_after) })}</div>}
                  {repo.log.length > 1 && (
                    <details>
                      <summary>{t('earlier', { count: formatNumber(language, repo.log.length - 1) })}</summary>
                      <ul className="plain-list">
                        {repo.log.slice(1).map((e) => (
                          <li key={`${e.finished_at}-${e.started_at}`}>
                            <span className={e.ok ? 'badge ok' : 'badge fail'}>{e.ok ? t('ok') : t('failed')}</span> {formatDateTime(language, e.finished_at)}
                            <EntryText entry={e} />
                          </li>
                        ))}
                      </ul>
                    </details>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
