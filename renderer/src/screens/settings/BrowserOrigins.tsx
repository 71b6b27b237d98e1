// Browser apps on other origins that may call the model API (the `allowed_origins` setting): one
// origin a line, none by default. Only the routes under /v1 answer them; this window and /admin never do.
import { useState, type FormEvent } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/http';
import { ErrorNote } from '../../components/ErrorNote';
import { useStrings } from '../../i18n/i18n';
import { MAX_ALLOWED_ORIGINS, ORIGIN_PATTERN } from '../../../../src/contract/settings';
import { Settings, SETTINGS_KEY } from './api';
import { settingsStrings } from './strings';

/** The origins a draft holds, one a line; null when a line is not an origin. */
export function originsOf(draft: string): string[] | null {
  const lines = draft
    .split('\n')
    .map((l) => l.trim().replace(/\/$/, ''))
    .filter((l) => l !== '');
  if (lines.length > MAX_ALLOWED_ORIGINS || !lines.every((l) => ORIGIN_PATTERN.test(l))) return null;
  return [...new Set(lines)];
}

export function BrowserOrigins({ value }: { value: string[] }) {
  const { t } = useStrings(settingsStrings);
  const client = useQueryClient();
  const [draft, setDraft] = useState(value.join('\n'));
  const [invalid, setInvalid] = useState(false);
  const save = useMutation({
    mutationFn: (origins: string[]) => api('PATCH', '/admin/settings', Settings, { allowed_origins: origins }),
    onSuccess: (s) => {
      client.setQueryData(SETTINGS_KEY, s);
      setDraft(s.allowed_origins.join('\n'));
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const origins = originsOf(draft);
    setInvalid(origins === null);
    if (origins !== null) save.mutate(origins);
  };
  return (
    <form className="card" onSubmit={submit} noValidate aria-labelledby="settings-origins" data-testid="settings-origins">
      <h2 id="settings-origins">{t('origins')}</h2>
      <p className="muted">{t('originsHelp')}</p>
      <label>
        {t('originsLabel')}
        <textarea
          className="lines"
          dir="ltr"
          rows={3}
          value={draft}
          placeholder="http://localhost:3000"
          aria-invalid={invalid}
          aria-describedby={invalid ? 'origins-error' : undefined}
          onChange={(e) => setDraft(e.target.value)}
          data-testid="allowed-origins"
        />
      </label>
      {invalid && (
        <p id="origins-error" className="field-error" role="alert">
          {t('originsInvalid')}
        </p>
      )}
      <p className="muted" data-testid="origins-said">
        {value.length === 0
          ? t('originsNone')
          : [
              t('originsSome'),
              ...value.flatMap((o, i) => [
                i === 0 ? ' ' : t('originsComma'),
                <bdi key={o} dir="ltr">
                  {o}
                </bdi>,
              ]),
            ]}
      </p>
      <button type="submit" disabled={save.isPending}>
        {t('originsSave')}
      </button>
      {save.isError && <ErrorNote error={save.error} />}
    </form>
  );
}
