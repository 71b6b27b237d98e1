// Adding an offsite target. After a successful add the form starts over empty, so no typed secret
// stays in the page.
import { useState } from 'react';
import { useStrings } from '../../i18n/i18n';
import { useAddTarget } from './api';
import { offsiteStrings } from './strings';
import { addBody, emptyDraft } from './target-form';
import { TargetForm } from './TargetForm';

export function AddTarget() {
  const { t } = useStrings(offsiteStrings);
  const add = useAddTarget();
  // A new key remounts the form with an empty draft after each successful add.
  const [round, setRound] = useState(0);
  return (
    <section className="card" aria-labelledby="add-target-title" data-testid="add-target">
      <h2 id="add-target-title">{t('addTitle')}</h2>
      <TargetForm
        key={round}
        mode="add"
        initial={emptyDraft()}
        busy={add.isPending}
        error={add.error}
        onSubmit={(draft) => add.mutate(addBody(draft), { onSuccess: () => setRound((r) => r + 1) })}
      />
      {add.isSuccess && (
        <p role="status" className="ok">
          {t('added', { name: add.data.name })}
        </p>
      )}
    </section>
  );
}
