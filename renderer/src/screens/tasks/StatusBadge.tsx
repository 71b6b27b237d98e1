// A task's state as a badge: the word always, the colour as a second cue.
import { useStrings } from '../../i18n/i18n';
import type { TaskStatus } from './api';
import { taskStrings } from './strings';

const TONE: Record<TaskStatus, string> = {
  queued: 'muted',
  loading: 'warn',
  running: 'warn',
  cancelling: 'warn',
  completed: 'ok',
  failed: 'fail',
  cancelled: 'muted',
};

export function StatusBadge({ status, testId }: { status: TaskStatus; testId?: string }) {
  const { t } = useStrings(taskStrings);
  return (
    <span className={`badge ${TONE[status]}`} data-status={status} data-testid={testId}>
      {t(`status_${status}`)}
    </span>
  );
}
