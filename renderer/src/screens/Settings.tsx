// The Settings screen (placeholder until it is built).
import { defineStrings, useStrings } from '../i18n/i18n';

const ns = defineStrings('screen-settings', {
  en: { title: 'Settings' },
  ar: { title: 'Settings' },
});

export function SettingsScreen(_props: { id: string | null }) {
  const { t } = useStrings(ns);
  return <h1>{t('title')}</h1>;
}
