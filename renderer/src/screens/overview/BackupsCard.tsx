// Last good backup per repository and its age against the target (the backup interval): older than
// the target is shown in the warning colour and in words, never by colour alone.
import { Said } from '../../said/Said';
import { backupTargetHours } from '../../../../src/contract/backups';
import { ErrorNote } from '../../components/ErrorNote';
import { formatDateTime, formatRelative } from '../../i18n/format';
import { useStrings } from '../../i18n/i18n';
import { useBackupStatus } from './api';
import type { RepositoryStatus } from './api';
import { SkeletonLines } from './Skeleton';
import { overviewStrings } from './strings';
import { backupAge } from './verdict';
import { Verbatim } from '../../components/Verbatim';

function RepositoryRow({ repo, intervalHours, nowS }: { repo: RepositoryStatus; intervalHours: number; nowS: number }) {
  const { t, language } = useStrings(overviewStrings);
  const age = backupAge(repo.last_ok_at, nowS, intervalHours);
  let state: { text: string; tone: string };
  if (!repo.enabled) state = { text: t('disabled'), tone: 'muted' };
  else if (age.state === 'never') state = { text: t('never'), tone: 'warn' };
  else if (repo.failing) state = { text: t('failing'), tone: 'warn' };
  else state = age.state === 'stale' ? { text: t('stale'), tone: 'warn' } : { text: t('onTarget'), tone: 'ok' };
  return (
    <tr data-testid={`overview-repo-${repo.name}`}>
      <th scope="row">
        <Verbatim>{repo.name}</Verbatim>
      </th>
      <td>
        {repo.last_ok_at === null ? (
          <span className="muted">—</span>
        ) : (
          <>
            <time dateTime={new Date(repo.last_ok_at * 1000).toISOString()}>{formatDateTime(language, repo.last_ok_at)}</time>
            <div className={age.state === 'stale' && repo.enabled ? 'warn' : 'muted'}>{formatRelative(language, repo.last_ok_at, nowS * 1000)}</div>
          </>
        )}
      </td>
      <td>
        <span className={state.tone}>{state.text}</span>
        {repo.failing && repo.last_error && <div className="muted small">{repo.last_error_said ? <Said said={repo.last_error_said} /> : repo.last_error}</div>}
      </td>
    </tr>
  );
}

export function BackupsCard({ nowS }: { nowS: number }) {
  const { t } = useStrings(overviewStrings);
  const backups = useBackupStatus();
  return (
    <section className="card overview-card" aria-labelledby="overview-backups">
      <h2 id="overview-backups">{t('backups')}</h2>
      {backups.isPending && <SkeletonLines lines={4} />}
      {backups.isError && <ErrorNote error={backups.error} onRetry={() => void backups.refetch()} />}
      {backups.data && (
        <>
          <p className="muted">{t('target', { count: backupTargetHours(backups.data.interval_hours) })}</p>
          {backups.data.paused && <p className="warn">{t('backupsPaused')}</p>}
          {backups.data.repositories.length === 0 ? (
            <p className="warn">{t('noRepositories')}</p>
          ) : (
            <table>
              <thead>
                <tr>
                  <th scope="col">{t('repository')}</th>
                  <th scope="col">{t('lastGood')}</th>
                  <th scope="col">{t('state')}</th>
                </tr>
              </thead>
              <tbody>
                {backups.data.repositories.map((repo) => (
                  <RepositoryRow key={repo.name} repo={repo} intervalHours={backups.data.interval_hours} nowS={nowS} />
                ))}
              </tbody>
            </table>
          )}
        </>
      )}
    </section>
  );
}
