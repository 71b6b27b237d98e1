// The default for models pulled from a hub: their bytes in every backup (a restore needs no
// network), or only where they came from (a restore downloads them again, verified). Each model
// can differ (the Models screen); this is what a new pull gets.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/http';
import { ErrorNote } from '../../components/ErrorNote';
import { useStrings } from '../../i18n/i18n';
import { Settings, SETTINGS_KEY } from './api';
import { settingsStrings } from './strings';

export function PulledModelsBackup({ value }: { value: 'include' | 'source' }) {
  const { t } = useStrings(settingsStrings);
  const client = useQueryClient();
  const save = useMutation({
    mutationFn: (v: 'include' | 'source') => api('PATCH', '/admin/settings', Settings, { pulled_models_backup: v }),
    onSuccess: (s) => client.setQueryData(SETTINGS_KEY, s),
  });
  return (
    <section className="card" aria-labelledby="settings-pulled-models">
      <h2 id="settings-pulled-models">{t('pulledModels')}</h2>
      <fieldset className="plain" disabled={save.isPending}>
        <legend className="visually-hidden">{t('pulledModels')}</legend>
        <label>
          <input type="radio" name="pulled-models-backup" checked={value === 'include'} onChange={() => save.mutate('include')} /> {t('pulledInclude')}
        </label>
        <label>
          <input type="radio" name="pulled-models-backup" checked={value === 'source'} onChange={() => save.mutate('source')} data-testid="pulled-source" />{' '}
          {t('pulledSource')}
        </label>
      </fieldset>
      {save.isError && <ErrorNote error={save.error} />}
    </section>
  );
}
