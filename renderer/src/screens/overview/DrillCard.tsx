// The last restore drill's verdict and when it finished.
import { ErrorNote } from '../../components/ErrorNote';
import { formatDateTime, formatRelative } from '../../i18n/format';
import { useStrings } from '../../i18n/i18n';
import { useDrillStatus } from './api';
import { SkeletonLines } from './Skeleton';
import { overviewStrings } from './strings';
import { latestDrill } from './verdict';

const TONE = { PASS: 'ok', FAIL: 'fail', UNVERIFIED: 'warn' } as const;

export function DrillCard({ nowS }: { nowS: number }) {
  const { t, language } = useStrings(overviewStrings);
  const drills = useDrillStatus();
  const last = drills.data ? latestDrill(drills.data.last) : null;
  const verdict = last?.verdict ?? 'UNVERIFIED';
  return (
    <section className="card overview-card" aria-labelledby="overview-drills">
      <h2 id="overview-drills">{t('drills')}</h2>
      {drills.isPending && <SkeletonLines lines={3} />}
      {drills.isError && <ErrorNote error={drills.error} onRetry={() => void drills.refetch()} />}
      {drills.data && !last && <p className="muted">{t('noDrill')}</p>}
      {last && (
        <p data-testid="overview-drill">
          <span className="muted">{t('lastDrill')}: </span>
          <span className={`badge ${TONE[verdict]}`}>{t(`verdict_${verdict}`)}</span> <span>({t(`drillKind_${last.kind}`)})</span>
          {last.finished_at !== null && (
            <>
              <br />
              <time dateTime={new Date(last.finished_at * 1000).toISOString()}>{formatDateTime(language, last.finished_at)}</time>{' '}
              <span className="muted">· {formatRelative(language, last.finished_at, nowS * 1000)}</span>
            </>
          )}
        </p>
      )}
      {drills.data?.paused && <p className="warn">{t('drillsPaused')}</p>}
    </section>
  );
}
