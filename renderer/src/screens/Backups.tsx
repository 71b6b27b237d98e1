// The Backups screen (placeholder until it is built).
import { defineStrings, useStrings } from '../i18n/i18n';

const ns = defineStrings('screen-backups', {
  en: { title: 'Backups' },
  ar: { title: 'Backups' },
});

export function BackupsScreen(_props: { id: string | null }) {
  const { t } = useStrings(ns);
  return <h1>{t('title')}</h1>;
}
