// A finished restore in two sentences, before any row of the checklist: what was restored (which
// backup, from when, from where, into which folder) and that it was verified. The rows themselves
// (files, fingerprints, tables) are behind "Details" for whoever wants them.
import { formatDateTime } from '../../i18n/format';
import { useStrings } from '../../i18n/i18n';
import { isolate } from '../bidi';
import type { RestoreOutcome } from './flow';
import { restoreStrings } from './strings';

export function RestoreSummary({ outcome }: { outcome: RestoreOutcome }) {
  const { t, language } = useStrings(restoreStrings);
  const taken = outcome.snapshotTime === null ? Number.NaN : Date.parse(outcome.snapshotTime);
  return (
    <div className="restore-summary" data-testid="restore-summary">
      {outcome.generation !== null && Number.isFinite(taken) && (
        <p>
          {t('summaryWhat', {
            when: formatDateTime(language, Math.floor(taken / 1000)),
            generation: String(outcome.generation),
            repo: isolate(outcome.repo ?? ''),
            target: isolate(outcome.target),
          })}
        </p>
      )}
      <p className="ok">{t('summaryVerified', { count: outcome.checks.length })}</p>
    </div>
  );
}
