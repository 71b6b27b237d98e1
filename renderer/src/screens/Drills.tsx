// The Drills screen (placeholder until it is built).
import { defineStrings, useStrings } from '../i18n/i18n';

const ns = defineStrings('screen-drills', {
  en: { title: 'Drills' },
  ar: { title: 'Drills' },
});

export function DrillsScreen(_props: { id: string | null }) {
  const { t } = useStrings(ns);
  return <h1>{t('title')}</h1>;
}
