// The Restore screen (placeholder until it is built).
import { defineStrings, useStrings } from '../i18n/i18n';

const ns = defineStrings('screen-restore', {
  en: { title: 'Restore' },
  ar: { title: 'Restore' },
});

export function RestoreScreen(_props: { id: string | null }) {
  const { t } = useStrings(ns);
  return <h1>{t('title')}</h1>;
}
