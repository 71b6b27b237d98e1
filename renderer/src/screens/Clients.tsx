// The Clients screen (placeholder until it is built).
import { defineStrings, useStrings } from '../i18n/i18n';

const ns = defineStrings('screen-clients', {
  en: { title: 'Clients' },
  ar: { title: 'Clients' },
});

export function ClientsScreen(_props: { id: string | null }) {
  const { t } = useStrings(ns);
  return <h1>{t('title')}</h1>;
}
