// "Bring back" for one thing a generation holds (a response, or a conversation with its
// responses): nothing to do when it is in the live data already; a thing deleted on purpose since
// asks first, since bringing it back undoes that deletion.
import { ConfirmAction } from '../../components/ConfirmAction';
import { ErrorNote } from '../../components/ErrorNote';
import { useStrings, type T } from '../../i18n/i18n';
import { useBringBack, type BringBackResult, type GenerationResponse } from './api';
import { historyStrings } from './strings';

type Strings = (typeof historyStrings)['strings']['en'];

function skippedText(t: T<Strings>, result: BringBackResult): string {
  // A conversation comes back with its responses; those still in the live data are "skipped".
  const first = result.skipped[0];
  return result.brought_back.length > 0 || !first ? t('broughtBack') : t(`skipped_${first.reason}`);
}

export function BringBackButton({
  repo,
  generation,
  item: r,
  undeleteQuestion,
}: {
  repo: string;
  generation: number;
  item: { id: string; live: GenerationResponse['live'] };
  undeleteQuestion?: string;
}) {
  const { t } = useStrings(historyStrings);
  const bring = useBringBack(repo, generation);
  if (bring.data)
    return (
      <span className={bring.data.brought_back.length > 0 ? 'ok' : 'warn'} data-testid="bring-back-result">
        {skippedText(t, bring.data)}
      </span>
    );
  if (r.live === 'present') return null;
  const errorNote = bring.error ? <ErrorNote error={bring.error} /> : null;
  if (r.live === 'deleted') {
    return (
      <>
        <ConfirmAction
          label={t('undelete')}
          question={undeleteQuestion ?? t('undeleteQuestion')}
          confirmLabel={t('undeleteConfirm')}
          onConfirm={() => bring.mutate({ id: r.id, undelete: true })}
          busy={bring.isPending}
          testId={`undelete-${r.id}`}
          tone="primary"
        />
        {errorNote}
      </>
    );
  }
  return (
    <>
      <button type="button" data-testid={`bring-back-${r.id}`} disabled={bring.isPending} onClick={() => bring.mutate({ id: r.id, undelete: false })}>
        {t('bringBack')}
      </button>
      {errorNote}
    </>
  );
}
