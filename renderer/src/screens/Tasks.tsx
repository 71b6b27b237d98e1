// The Tasks screen: "try it" and the task list at #/tasks; one task's live page at #/tasks/<id>.
import { useStrings } from '../i18n/i18n';
import { taskStrings } from './tasks/strings';
import { TaskList } from './tasks/TaskList';
import { TaskPage } from './tasks/TaskPage';
import { TryIt } from './tasks/TryIt';
import './tasks.css';

export function TasksScreen({ id }: { id: string | null }) {
  const { t } = useStrings(taskStrings);
  if (id !== null) return <TaskPage id={id} />;
  return (
    <>
      <h1>{t('title')}</h1>
      <TryIt />
      <TaskList />
    </>
  );
}
