// What the Tasks screen reads from the LMSP API (/v1/tasks, /v1/models, /v1/responses): the wire
// contract's schemas (src/contract/tasks.ts), and the queries. Keys start with what live
// invalidation knows ('tasks', 'models') and name this screen, so no other screen shares the entry.
import { useQuery } from '@tanstack/react-query';
import { api } from '../../api/http';
import { ModelList, Task } from '../../../../src/contract/tasks';

export { CANCELLABLE, CreatedResponse, ModelList, Task, TASK_STATUSES, TaskPage, TaskStatus, TERMINAL } from '../../../../src/contract/tasks';

export const taskKey = (id: string) => ['tasks', 'task', id] as const;

export const useModels = () => useQuery({ queryKey: ['models', 'tasks-screen'], queryFn: () => api('GET', '/v1/models', ModelList) });

export const useTask = (id: string) => useQuery({ queryKey: taskKey(id), queryFn: () => api('GET', `/v1/tasks/${encodeURIComponent(id)}`, Task) });
