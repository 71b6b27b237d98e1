// The Tasks screen's queries. Keys start with what live invalidation knows ('tasks', 'models') and
// name this screen, so another screen's schema for the same route never shares the entry.
import { useQuery } from '@tanstack/react-query';
import { api } from '../../api/http';
import { ModelList, Task } from './schemas';

export const taskKey = (id: string) => ['tasks', 'task', id] as const;

export const useModels = () => useQuery({ queryKey: ['models', 'tasks-screen'], queryFn: () => api('GET', '/v1/models', ModelList) });

export const useTask = (id: string) => useQuery({ queryKey: taskKey(id), queryFn: () => api('GET', `/v1/tasks/${encodeURIComponent(id)}`, Task) });
