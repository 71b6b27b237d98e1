// Cancel for any open run (a backup, its maintenance, an offsite copy, a drill, a restore, a model
// download): POST /admin/runs/{id}/cancel. A running one stops, a waiting one never starts; the run
// then ends `cancelled` and the live events take it out of the open runs (api/open-runs.ts).
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../api/http';
import { OPEN_RUNS_KEY } from '../api/open-runs';
import { defineStrings, useStrings } from '../i18n/i18n';
import { Run } from '../../../src/contract/runs';
import { ErrorNote } from './ErrorNote';

const ns = defineStrings('cancel-run', {
  en: { cancel: 'Cancel', cancelling: 'Cancelling…' },
  ar: { cancel: 'إلغاء', cancelling: 'جارٍ الإلغاء…' },
});

/** `label`: what is cancelled, for a screen reader ("Cancel the backup"). */
export function CancelRun({ run, label }: { run: Run | null; label: string }) {
  const { t } = useStrings(ns);
  const client = useQueryClient();
  const cancel = useMutation({
    mutationFn: (id: number) => api('POST', `/admin/runs/${id}/cancel`, Run),
    onSettled: () => void client.invalidateQueries({ queryKey: OPEN_RUNS_KEY }),
  });
  if (run === null) return null;
  const pending = cancel.isPending || (cancel.isSuccess && cancel.variables === run.id);
  return (
    <>
      <button type="button" data-testid={`cancel-run-${run.kind}`} aria-label={label} disabled={pending} onClick={() => cancel.mutate(run.id)}>
        {pending ? t('cancelling') : t('cancel')}
      </button>
      {cancel.error && <ErrorNote error={cancel.error} />}
    </>
  );
}
