// The Overview screen (placeholder until it is built).
import { defineStrings, useStrings } from '../i18n/i18n';

const ns = defineStrings('screen-overview', {
  en: { title: 'Overview' },
  ar: { title: 'Overview' },
});

export function OverviewScreen(_props: { id: string | null }) {
  const { t } = useStrings(ns);
  return <h1>{t('title')}</h1>;
}
