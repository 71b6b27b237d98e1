// The backup retention policy, set by the person: how many of the newest hourly, daily, weekly and
// monthly backups each repository keeps. "Preview" asks each repository's restic what the typed
// counts would remove (POST /admin/retention/preview, nothing changed); "Save" stores them
// (PATCH /admin/settings) and the next maintenance applies them.
import { Said } from '../../said/Said';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { api } from '../../api/http';
import { ErrorNote } from '../../components/ErrorNote';
import { formatDateTime, formatNumber } from '../../i18n/format';
import { useStrings } from '../../i18n/i18n';
import { isolate } from '../bidi';
import { RetentionPreview } from '../../../../src/contract/backups';
import { Settings, SETTINGS_KEY } from './api';
import { settingsStrings } from './strings';

const KEYS = ['retention_keep_hourly', 'retention_keep_daily', 'retention_keep_weekly', 'retention_keep_monthly'] as const;
type Key = (typeof KEYS)[number];
const LABEL = {
  retention_keep_hourly: 'keepHourly',
  retention_keep_daily: 'keepDaily',
  retention_keep_weekly: 'keepWeekly',
  retention_keep_monthly: 'keepMonthly',
} as const;
// The ranges of src/contract/settings.ts: at least one daily backup is always kept.
const MAX = 1000;
const MIN: Record<Key, number> = { retention_keep_hourly: 0, retention_keep_daily: 1, retention_keep_weekly: 0, retention_keep_monthly: 0 };

type Draft = Record<Key, string>;

/** The typed counts, or null when one is not a whole number in its range. */
function countsOf(draft: Draft): Record<Key, number> | null {
  const out: Partial<Record<Key, number>> = {};
  for (const k of KEYS) {
    const v = draft[k].trim();
    if (!/^\d+$/.test(v) || Number(v) < MIN[k] || Number(v) > MAX) return null;
    out[k] = Number(v);
  }
  const { retention_keep_hourly: h, retention_keep_daily: d, retention_keep_weekly: w, retention_keep_monthly: m } = out;
  return h === undefined || d === undefined || w === undefined || m === undefined
    ? null
    : { retention_keep_hourly: h, retention_keep_daily: d, retention_keep_weekly: w, retention_keep_monthly: m };
}

function PreviewSaid({ preview }: { preview: RetentionPreview }) {
  const { t, language } = useStrings(settingsStrings);
  const at = (iso: string) => formatDateTime(language, Math.floor(Date.parse(iso) / 1000));
  return (
    // The live region around the list, not on it: role="status" on a <ul> hides its items from the list (axe).
    <div role="status" data-testid="retention-preview">
      <ul className="retention-preview">
        {preview.repositories.map((r) => (
          <li key={r.name} data-repo={r.name} data-remove={r.remove.length}>
            {r.error !== null ? (
              r.error_said ? (
                <Said said={r.error_said} />
              ) : (
                t('previewError', { repo: isolate(r.name), error: r.error })
              )
            ) : r.remove.length === 0 ? (
              t('previewNone', { repo: isolate(r.name) })
            ) : (
              t('previewRemove', {
                count: r.remove.length,
                n: formatNumber(language, r.remove.length),
                repo: isolate(r.name),
                oldest: at(r.remove[0]?.time ?? ''),
                newest: at(r.remove.at(-1)?.time ?? ''),
              })
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}

export function Retention({ saved }: { saved: Settings }) {
  const { t, language } = useStrings(settingsStrings);
  const client = useQueryClient();
  const [draft, setDraft] = useState<Draft>(() => ({
    retention_keep_hourly: String(saved.retention_keep_hourly),
    retention_keep_daily: String(saved.retention_keep_daily),
    retention_keep_weekly: String(saved.retention_keep_weekly),
    retention_keep_monthly: String(saved.retention_keep_monthly),
  }));
  const [invalid, setInvalid] = useState(false);
  const preview = useMutation({ mutationFn: (counts: Record<Key, number>) => api('POST', '/admin/retention/preview', RetentionPreview, counts) });
  const save = useMutation({
    mutationFn: (counts: Record<Key, number>) => api('PATCH', '/admin/settings', Settings, counts),
    onSuccess: (next) => {
      client.setQueryData(SETTINGS_KEY, next);
      // The Backups screen's copy too, though it is not open now (ScheduleForm says why).
      void client.invalidateQueries({ queryKey: ['settings'], refetchType: 'all' });
    },
  });
  const checked = (): Record<Key, number> | null => {
    const counts = countsOf(draft);
    setInvalid(counts === null);
    return counts;
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const counts = checked();
    if (counts) save.mutate(counts);
  };
  return (
    <form className="card" onSubmit={submit} noValidate aria-labelledby="settings-retention" data-testid="settings-retention-form">
      <h2 id="settings-retention">{t('retention')}</h2>
      <p data-testid="settings-retention">
        {t('retentionText', {
          hourly: formatNumber(language, saved.retention_keep_hourly),
          daily: formatNumber(language, saved.retention_keep_daily),
          weekly: formatNumber(language, saved.retention_keep_weekly),
          monthly: formatNumber(language, saved.retention_keep_monthly),
        })}
      </p>
      <fieldset className="retention-counts" aria-describedby={invalid ? 'retention-invalid' : undefined}>
        <legend>{t('retentionKeep')}</legend>
        {KEYS.map((k) => (
          <label key={k}>
            {t(LABEL[k])}{' '}
            <input
              type="number"
              inputMode="numeric"
              min={MIN[k]}
              max={MAX}
              value={draft[k]}
              aria-invalid={invalid ? true : undefined}
              onChange={(e) => {
                setDraft({ ...draft, [k]: e.target.value });
                setInvalid(false);
                preview.reset();
                save.reset();
              }}
              data-testid={`retention-${k}`}
            />
          </label>
        ))}
      </fieldset>
      {invalid && (
        <div id="retention-invalid" className="field-error" role="alert">
          {t('retentionInvalid', { max: formatNumber(language, MAX) })}
        </div>
      )}
      {preview.data && <PreviewSaid preview={preview.data} />}
      {preview.isError && <ErrorNote error={preview.error} />}
      {save.isError && <ErrorNote error={save.error} />}
      <div className="row">
        <button
          type="button"
          disabled={preview.isPending}
          onClick={() => {
            const counts = checked();
            if (counts) preview.mutate(counts);
          }}
          data-testid="retention-preview-button"
        >
          {preview.isPending ? t('retentionPreviewing') : t('retentionPreview')}
        </button>
        <button type="submit" className="primary" disabled={save.isPending} data-testid="retention-save">
          {t('retentionSave')}
        </button>
        <span role="status" className="ok" data-testid="retention-saved">
          {save.isSuccess && t('retentionSaved')}
        </span>
      </div>
    </form>
  );
}
