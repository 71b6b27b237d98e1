// Service state: where Sanad listens, which model is in memory, and how many tasks run or wait.
import { CopyButton } from '../../components/CopyButton';
import { ErrorNote } from '../../components/ErrorNote';
import { formatNumber } from '../../i18n/format';
import { useStrings } from '../../i18n/i18n';
import { useAdminStatus } from './api';
import { SkeletonLines } from './Skeleton';
import { overviewStrings } from './strings';
import { Verbatim } from '../../components/Verbatim';

export function ServiceCard() {
  const { t, language } = useStrings(overviewStrings);
  const status = useAdminStatus();
  return (
    <section className="card overview-card" aria-labelledby="overview-service">
      <h2 id="overview-service">{t('service')}</h2>
      {status.isPending && <SkeletonLines lines={4} />}
      {status.isError && <ErrorNote error={status.error} onRetry={() => void status.refetch()} />}
      {status.data && (
        <dl className="facts" data-testid="overview-service">
          <dt>{t('address')}</dt>
          <dd>
            {/* One line, never broken mid-port: the whole address on hover and in the copy. */}
            <span className="one-line-value">
              <code className="ellipsis" title={status.data.service.address} dir="ltr">
                {status.data.service.address}
              </code>
              <CopyButton value={status.data.service.address} />
            </span>
          </dd>
          <dt>{t('loadedModel')}</dt>
          <dd>
            {status.data.service.loaded_model !== null ? (
              <Verbatim>{status.data.service.loaded_model}</Verbatim>
            ) : (
              <span className="muted">{t('noModelLoaded')}</span>
            )}
          </dd>
          <dt>{t('running')}</dt>
          <dd data-testid="overview-running">{formatNumber(language, status.data.tasks.running)}</dd>
          <dt>{t('queued')}</dt>
          <dd>{formatNumber(language, status.data.tasks.queued)}</dd>
        </dl>
      )}
    </section>
  );
}
