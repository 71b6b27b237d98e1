// The Tasks screen (placeholder until it is built).
import { defineStrings, useStrings } from '../i18n/i18n';

const ns = defineStrings('screen-tasks', {
  en: { title: 'Tasks' },
  ar: { title: 'Tasks' },
});

export function TasksScreen(_props: { id: string | null }) {
  const { t } = useStrings(ns);
  return <h1>{t('title')}</h1>;
}
