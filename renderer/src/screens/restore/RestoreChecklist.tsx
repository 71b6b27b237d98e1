// What a restore verified, in the order it verified it: each check in words, passed or failed, with
// what Sanad found, worded in the reader's language (files and paths kept as they are). A failed restore lists the check that stopped
// it, so the user sees where it failed, not only that it did.
import { useStrings } from '../../i18n/i18n';
import { Said } from '../../said/Said';
import { restoreCheckLabel, restoreCheckStrings } from './check-names';
import type { RestoreCheck } from './flow';
import { restoreChecklistStrings } from './strings';

export function RestoreChecklist({ checks }: { checks: readonly RestoreCheck[] }) {
  const { t } = useStrings(restoreChecklistStrings);
  const names = useStrings(restoreCheckStrings).t;
  return (
    <ul className="checklist" aria-label={t('label')} data-testid="restore-checklist">
      {checks.map((c, i) => (
        <li key={`${c.name}-${i}`} data-check={c.name} data-ok={c.ok}>
          <span>
            <span className={c.ok ? 'badge ok' : 'badge fail'}>{c.ok ? t('ok') : t('failed')}</span>
          </span>
          <span className="check-name">{restoreCheckLabel(c.name, names)}</span>
          <span className="check-detail" dir="auto">
            <Said said={c} />
          </span>
        </li>
      ))}
    </ul>
  );
}
