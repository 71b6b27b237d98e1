// Settings: schedules and defaults, devices on the network, the backup retention policy, the backup passphrase, the
// recovery kit, the language and where the desktop app looks for updates.
import { lazy, Suspense } from 'react';
import { ErrorNote } from '../components/ErrorNote';
import { useStrings } from '../i18n/i18n';
import { Diagnostics } from './settings/Diagnostics';
import { LanguagePicker } from './settings/LanguagePicker';
import { PassphraseRotation } from './settings/PassphraseRotation';
import { useSettings } from './settings/api';
import { RecoveryKit } from './settings/RecoveryKit';
import { PulledModelsBackup } from './settings/PulledModelsBackup';
import { Retention } from './settings/Retention';
import { ScheduleForm } from './settings/ScheduleForm';
import { UpdateFeed } from './settings/UpdateFeed';
import { BrowserOrigins } from './settings/BrowserOrigins';
import { settingsStrings } from './settings/strings';
import './settings.css';

// Fetched with the screen part that needs it (the GUI's size budget; most people never turn it on).
const NetworkDevices = lazy(() => import('./settings/NetworkDevices').then((m) => ({ default: m.NetworkDevices })));

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
      <Suspense
        fallback={
          <div className="card settings-skeleton" aria-hidden="true">
            <span className="skeleton" />
          </div>
        }
      >
        <NetworkDevices />
      </Suspense>
      {settings.data && <BrowserOrigins value={settings.data.allowed_origins} />}
      {settings.data && <Retention saved={settings.data} />}
      {settings.data && <PulledModelsBackup value={settings.data.pulled_models_backup} />}
      <RecoveryKit />
      <PassphraseRotation />
      <LanguagePicker />
      {settings.data && <UpdateFeed value={settings.data.update_feed_url} />}
      <Diagnostics />
    </div>
  );
}
