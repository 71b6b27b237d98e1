// The one-line answer at the top of the Overview, worded from overallVerdict's reasons. While the
// inputs load it keeps its height (no jump); when one failed it says it cannot tell, never "safe".
import { formatNumber, formatRelative } from '../../i18n/format';
import { useStrings } from '../../i18n/i18n';
import { overviewStrings } from './strings';
import type { Reason, Verdict } from './verdict';

export function useReasonText(nowS: number): (reason: Reason) => string {
  const { t, language } = useStrings(overviewStrings);
  return (r) => {
    switch (r.code) {
      case 'drill_failed':
        return t(r.kind === 'deep' ? 'r_drill_failed_deep' : 'r_drill_failed_daily');
      case 'critical_alerts':
      case 'warning_alerts':
        return t(`r_${r.code}`, { count: formatNumber(language, r.count) });
      case 'backup_never':
      case 'backup_failing':
        return t(`r_${r.code}`, { repo: r.repo });
      case 'backup_stale':
        return t('r_backup_stale', { repo: r.repo, ago: formatRelative(language, nowS - r.ageS, nowS * 1000) });
      default:
        return t(`r_${r.code}`);
    }
  };
}

export function VerdictLine({ verdict, failed, nowS }: { verdict: Verdict | null; failed: boolean; nowS: number }) {
  const { t } = useStrings(overviewStrings);
  const reasonText = useReasonText(nowS);
  const level = failed ? 'unknown' : (verdict?.level ?? 'loading');
  let text: string;
  if (failed) text = t('unknown');
  else if (!verdict) text = t('checking');
  else if (verdict.level === 'protected') text = t('protected');
  else text = t(verdict.level, { reasons: verdict.reasons.map(reasonText).join(t('separator')) });
  if (!failed && verdict && verdict.accepted > 0) text += t('acceptedSuffix', { count: verdict.accepted });
  return (
    <p className={`verdict verdict-${level}`} role="status" aria-busy={verdict === null && !failed} data-testid="overview-verdict" data-level={level}>
      {text}
    </p>
  );
}
