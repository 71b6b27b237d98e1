// One drill's checklist: every check with its result (passed, failed: damage found, or unverified:
// it could not complete, so no proof either way), the repository it is about, and Sanad's own
// sentence on what it found, in the reader's language. Also the verdict badge used in the history.
import { useStrings } from '../../i18n/i18n';
import { Said } from '../../said/Said';
import type { CheckStatus, DrillCheck, Verdict } from './api';
import { checkLabel, checkStrings, parseCheckName } from './check-names';
import { checklistStrings } from './strings';

const STATUS_CLASS: Record<CheckStatus, string> = { pass: 'badge ok', fail: 'badge fail', unverified: 'badge warn' };
const VERDICT_CLASS: Record<Verdict, string> = { PASS: 'ok', FAIL: 'fail', UNVERIFIED: 'warn' };

export function VerdictBadge({ verdict }: { verdict: Verdict | null }) {
  const { t } = useStrings(checklistStrings);
  if (verdict === null) return <span className="badge verdict">…</span>;
  return (
    <span className={`badge verdict ${VERDICT_CLASS[verdict]}`} data-verdict={verdict}>
      {t(verdict)}
    </span>
  );
}

export function DrillChecklist({ checks }: { checks: readonly DrillCheck[] }) {
  const { t } = useStrings(checklistStrings);
  const names = useStrings(checkStrings).t;
  if (checks.length === 0) return <p className="muted">{t('none')}</p>;
  return (
    <ul className="checklist" aria-label={t('label')}>
      {checks.map((c, i) => {
        const name = parseCheckName(c.name);
        return (
          <li key={`${c.name}-${i}`} data-check={c.name} data-status={c.status}>
            <span>
              <span className={STATUS_CLASS[c.status]}>{t(c.status)}</span>
            </span>
            <span className="check-name">
              {checkLabel(name, names)} {name.repo !== null && <span className="muted">{t('repo', { repo: name.repo })}</span>}
            </span>
            <span className="check-detail">
              <Said said={c} />
            </span>
          </li>
        );
      })}
    </ul>
  );
}
