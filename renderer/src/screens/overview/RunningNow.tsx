// What runs now, from the open runs (api/open-runs.ts): each backup, its maintenance, an offsite
// copy, a drill, a restore or a model download, running or waiting, with how far it is where that is measured, and a
// link to the screen that shows it. Nothing shows while nothing runs.
import { href, type Screen } from '../../app/routes';
import { useOpenRuns } from '../../api/open-runs';
import { formatPercent } from '../../i18n/format';
import { useStrings } from '../../i18n/i18n';
import type { Run, RunKind } from '../../../../src/contract/runs';
import { runningNowStrings } from './running-now-strings';
import { CancelRun } from '../../components/CancelRun';

const SCREEN: Record<RunKind, Screen> = {
  backup: 'backups',
  maintenance: 'backups',
  'offsite-copy': 'backups',
  drill: 'drills',
  restore: 'restore',
  pull: 'models',
};

/** How far a run is, 0..1, where its progress measures it (restic's upload, a drill's checks, a restore's bytes). */
export function runFraction(run: Run): number | null {
  const p = run.progress;
  if (p === null) return null;
  if ('check' in p) return p.total > 0 ? Math.max(0, p.index - 1) / p.total : null;
  if ('percent' in p && typeof p.percent === 'number') return Math.min(1, Math.max(0, p.percent));
  if ('bytes' in p && p.total > 0) return Math.min(1, p.bytes / p.total);
  return null;
}

export function RunningNow() {
  const { t, language } = useStrings(runningNowStrings);
  const runs = useOpenRuns().data ?? [];
  if (runs.length === 0) return null;
  return (
    <section className="card" aria-labelledby="overview-running-now" data-testid="overview-running-now">
      <h2 id="overview-running-now">{t('title')}</h2>
      <ul className="running-now">
        {runs.map((run) => {
          const fraction = runFraction(run);
          return (
            <li key={run.id} data-testid={`running-${run.kind}`} data-status={run.status}>
              <a href={href(SCREEN[run.kind])}>{t(`kind_${run.kind}`)}</a>{' '}
              <span className="muted">
                {run.status === 'queued'
                  ? t('waiting')
                  : fraction === null
                    ? t('running')
                    : t('runningPercent', { percent: formatPercent(language, fraction) })}
              </span>{' '}
              <CancelRun run={run} label={t('cancelOne', { what: t(`kind_${run.kind}`) })} />
            </li>
          );
        })}
      </ul>
    </section>
  );
}
