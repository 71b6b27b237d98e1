// Schedules and defaults: hours between backups or a time of day, not on battery / metered,
// pausing backups and drills, the default
// `on_restart` for new tasks. Saving sends only what changed (PATCH /admin/settings); an error the
// server ties to a field is shown under that field, anything else once for the form.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { api } from '../../api/http';
import { ErrorNote } from '../../components/ErrorNote';
import { FieldNote } from '../../components/FieldNote';
import { errorFor, formError, placeError } from '../../components/param-errors';
import { formatNumber } from '../../i18n/format';
import { useStrings } from '../../i18n/i18n';
import { draftFrom, FORM_FIELDS, patchFrom, type Draft } from './draft';
import { SETTINGS_KEY } from './api';
import { ON_RESTART, OnRestart, Settings } from './api';
import { settingsStrings } from './strings';

const errorId = (field: string) => `settings-${field}-error`;
// The range SettingsSchema allows for backup_interval_hours (src/store/settings.ts).
const MIN_HOURS = 1;
const MAX_HOURS = 24 * 7;

export function ScheduleForm({ saved }: { saved: Settings }) {
  const { t, language } = useStrings(settingsStrings);
  const client = useQueryClient();
  const [draft, setDraft] = useState<Draft>(() => draftFrom(saved));
  const [outcome, setOutcome] = useState<'saved' | 'unchanged' | null>(null);
  const save = useMutation({
    mutationFn: (patch: Record<string, unknown>) => api('PATCH', '/admin/settings', Settings, patch),
    onSuccess: (next) => {
      client.setQueryData(SETTINGS_KEY, next);
      setOutcome('saved');
      // The schedules show in the backup and drill status and the Overview's verdict. Screens not
      // open now are fetched again too, so the next one opened shows the new schedule at once
      // rather than the old one until its own refetch returns.
      for (const key of [['settings'], ['backups'], ['drills'], ['status'], ['diagnostics']])
        void client.invalidateQueries({ queryKey: key, refetchType: 'all' });
    },
  });
  const placed = placeError(save.error, FORM_FIELDS);
  const change = (next: Partial<Draft>) => {
    setDraft({ ...draft, ...next });
    setOutcome(null);
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const patch = patchFrom(draft, saved);
    if (Object.keys(patch).length === 0) {
      save.reset();
      setOutcome('unchanged');
      return;
    }
    save.mutate(patch);
  };
  const described = (field: string, help?: string) => {
    const ids = [help, errorFor(placed, field) ? errorId(field) : undefined].filter((x) => x !== undefined);
    return { 'aria-invalid': errorFor(placed, field) ? true : undefined, 'aria-describedby': ids.length ? ids.join(' ') : undefined };
  };
  return (
    <form className="card" onSubmit={submit} noValidate aria-labelledby="settings-schedules" data-testid="settings-schedules">
      <h2 id="settings-schedules">{t('schedules')}</h2>
      <fieldset className="field plain" {...described('backup_time_of_day')}>
        <legend>{t('backupWhen')}</legend>
        <label className="check">
          <input
            type="radio"
            name="backup-when"
            value="interval"
            checked={draft.backup_when === 'interval'}
            onChange={() => change({ backup_when: 'interval' })}
            data-testid="settings-when-interval"
          />
          {t('whenInterval')}
        </label>
        {draft.backup_when === 'interval' && (
          <div className="field nested">
            <label htmlFor="settings-interval">{t('interval')}</label>
            <input
              id="settings-interval"
              type="number"
              inputMode="numeric"
              min={MIN_HOURS}
              max={MAX_HOURS}
              value={draft.backup_interval_hours}
              onChange={(e) => change({ backup_interval_hours: e.target.value })}
              {...described('backup_interval_hours', 'settings-interval-help')}
            />
            <div id="settings-interval-help" className="muted small">
              {t('intervalHelp')}
            </div>
            <FieldNote
              id={errorId('backup_interval_hours')}
              error={errorFor(placed, 'backup_interval_hours')}
              text={t('intervalInvalid', { min: formatNumber(language, MIN_HOURS), max: formatNumber(language, MAX_HOURS) })}
            />
          </div>
        )}
        <label className="check">
          <input
            type="radio"
            name="backup-when"
            value="daily"
            checked={draft.backup_when === 'daily'}
            onChange={() => change({ backup_when: 'daily' })}
            data-testid="settings-when-daily"
          />
          {t('whenDaily')}
        </label>
        {draft.backup_when === 'daily' && (
          <div className="field nested">
            <label htmlFor="settings-time-of-day">{t('timeOfDay')}</label>
            <input
              id="settings-time-of-day"
              type="time"
              value={draft.backup_time_of_day}
              onChange={(e) => change({ backup_time_of_day: e.target.value })}
              {...described('backup_time_of_day', 'settings-time-of-day-help')}
            />
            <div id="settings-time-of-day-help" className="muted small">
              {t('timeOfDayHelp')}
            </div>
            <FieldNote id={errorId('backup_time_of_day')} error={errorFor(placed, 'backup_time_of_day')} text={t('timeOfDayInvalid')} />
          </div>
        )}
      </fieldset>
      <div className="field">
        <label className="check">
          <input
            type="checkbox"
            checked={draft.backup_skip_on_battery}
            onChange={(e) => change({ backup_skip_on_battery: e.target.checked })}
            {...described('backup_skip_on_battery', 'settings-conditions-help')}
            data-testid="settings-skip-battery"
          />
          {t('skipOnBattery')}
        </label>
        <label className="check">
          <input
            type="checkbox"
            checked={draft.backup_skip_on_metered}
            onChange={(e) => change({ backup_skip_on_metered: e.target.checked })}
            {...described('backup_skip_on_metered', 'settings-conditions-help')}
            data-testid="settings-skip-metered"
          />
          {t('skipOnMetered')}
        </label>
        <div id="settings-conditions-help" className="muted small">
          {t('conditionsHelp')}
        </div>
      </div>
      <div className="field">
        <label className="check">
          <input type="checkbox" checked={draft.backup_paused} onChange={(e) => change({ backup_paused: e.target.checked })} {...described('backup_paused')} />
          {t('backupPaused')}
        </label>
        <FieldNote id={errorId('backup_paused')} error={errorFor(placed, 'backup_paused')} />
      </div>
      <div className="field">
        <label className="check">
          <input type="checkbox" checked={draft.drill_paused} onChange={(e) => change({ drill_paused: e.target.checked })} {...described('drill_paused')} />
          {t('drillPaused')}
        </label>
        <FieldNote id={errorId('drill_paused')} error={errorFor(placed, 'drill_paused')} />
      </div>
      <div className="field">
        <label htmlFor="settings-on-restart">{t('onRestart')}</label>
        <select
          id="settings-on-restart"
          value={draft.default_on_restart}
          onChange={(e) => {
            const parsed = OnRestart.safeParse(e.target.value);
            if (parsed.success) change({ default_on_restart: parsed.data });
          }}
          {...described('default_on_restart', 'settings-on-restart-help')}
        >
          {ON_RESTART.map((v) => (
            <option key={v} value={v}>
              {t(`onRestart_${v}`)}
            </option>
          ))}
        </select>
        <div id="settings-on-restart-help" className="muted small">
          {t('onRestartHelp')}
        </div>
        <FieldNote id={errorId('default_on_restart')} error={errorFor(placed, 'default_on_restart')} />
      </div>
      {formError(placed) !== null && <ErrorNote error={formError(placed)} />}
      <div className="row">
        <button type="submit" className="primary" disabled={save.isPending}>
          {save.isPending ? t('saving') : t('save')}
        </button>
        <span role="status" className="muted" data-testid="settings-save-state">
          {outcome === 'saved' && t('saved')}
          {outcome === 'unchanged' && t('nothingChanged')}
        </span>
      </div>
    </form>
  );
}
