// Settings: schedules and defaults, the backup retention policy, the backup passphrase, the
// recovery kit and the language.
import { ErrorNote } from '../components/ErrorNote';
import { useStrings } from '../i18n/i18n';
import { Diagnostics } from './settings/Diagnostics';
import { LanguagePicker } from './settings/LanguagePicker';
import { PassphraseRotation } from './settings/PassphraseRotation';
import { useSettings } from './settings/api';
import { RecoveryKit } from './settings/RecoveryKit';
import { Retention } from './settings/Retention';
import { ScheduleForm } from './settings/ScheduleForm';
import { settingsStrings } from './settings/strings';
import './settings.css';

export function SettingsScreen(_props: { id: string | null }) {
  const { t } = useStrings(settingsStrings);
  const settings = useSettings();
  return (
    <div className="settings-screen">
      <h1>{t('title')}</h1>
      {settings.isPending && (
        <div className="card settings-skeleton" aria-hidden="true">
          {Array.from({ length: 8 }, (_, i) => (
            <span key={i} className="skeleton" />
          ))}
        </div>
      )}
      {settings.isError && <ErrorNote error={settings.error} onRetry={() => void settings.refetch()} />}
      {settings.data && <ScheduleForm saved={settings.data} />}
      <Retention />
      <RecoveryKit />
      <PassphraseRotation />
      <LanguagePicker />
      <Diagnostics />
    </div>
  );
}
