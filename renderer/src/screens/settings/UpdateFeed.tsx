// Where the desktop app looks for a newer Sanad (the `update_feed_url` setting). Empty: it never
// looks. A found update is downloaded and checked, then offered in the tray; it installs only
// when the person restarts for it.
import { useState, type FormEvent } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/http';
import { ErrorNote } from '../../components/ErrorNote';
import { useStrings } from '../../i18n/i18n';
import { isFeedUrl } from '../../../../src/contract/settings';
import { Settings, SETTINGS_KEY } from './api';
import { settingsStrings } from './strings';

export function UpdateFeed({ value }: { value: string | null }) {
  const { t } = useStrings(settingsStrings);
  const client = useQueryClient();
  const [draft, setDraft] = useState(value ?? '');
  const [invalid, setInvalid] = useState(false);
  const save = useMutation({
    mutationFn: (url: string | null) => api('PATCH', '/admin/settings', Settings, { update_feed_url: url }),
    onSuccess: (s) => {
      client.setQueryData(SETTINGS_KEY, s);
      setDraft(s.update_feed_url ?? '');
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const url = draft.trim();
    const ok = url === '' || isFeedUrl(url);
    setInvalid(!ok);
    if (ok) save.mutate(url === '' ? null : url);
  };
  return (
    <form className="card" onSubmit={submit} noValidate aria-labelledby="settings-updates" data-testid="settings-updates">
      <h2 id="settings-updates">{t('updates')}</h2>
      <p className="muted">{t('updatesHelp')}</p>
      <label>
        {t('updateFeed')}
        <input
          type="url"
          dir="ltr"
          value={draft}
          placeholder="https://updates.example.com/sanad/"
          aria-invalid={invalid}
          aria-describedby={invalid ? 'update-feed-error' : undefined}
          onChange={(e) => setDraft(e.target.value)}
          data-testid="update-feed"
        />
      </label>
      {invalid && (
        <p id="update-feed-error" className="field-error" role="alert">
          {t('updateFeedInvalid')}
        </p>
      )}
      <p className="muted">{value === null ? t('updatesOff') : t('updatesOn')}</p>
      <button type="submit" disabled={save.isPending}>
        {t('updateFeedSave')}
      </button>
      {save.isError && <ErrorNote error={save.error} />}
    </form>
  );
}
