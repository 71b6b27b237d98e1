// The Offsite screen (placeholder until it is built).
import { defineStrings, useStrings } from '../i18n/i18n';

const ns = defineStrings('screen-offsite', {
  en: { title: 'Offsite' },
  ar: { title: 'Offsite' },
});

export function OffsiteScreen(_props: { id: string | null }) {
  const { t } = useStrings(ns);
  return <h1>{t('title')}</h1>;
}
