// Hash routes (#/tasks, #/tasks/task_123, #/restore): the GUI is one page served at `/`, and a hash
// never reaches the server, so a reload or a bookmark works without server routes.
export const SCREENS = ['overview', 'chat', 'tasks', 'models', 'clients', 'backups', 'offsite', 'drills', 'restore', 'settings'] as const;
export type Screen = (typeof SCREENS)[number];

export interface Route {
  screen: Screen;
  /** The rest of the path, e.g. a task id. */
  id: string | null;
}

function isScreen(value: string): value is Screen {
  return SCREENS.some((s) => s === value);
}

export function parseRoute(hash: string): Route {
  const parts = hash
    .replace(/^#\/?/, '')
    .split('/')
    .filter((p) => p !== '');
  const [first, second] = parts;
  if (first === undefined || !isScreen(first)) return { screen: 'overview', id: null };
  return { screen: first, id: second === undefined ? null : decodeURIComponent(second) };
}

export function href(screen: Screen, id?: string): string {
  return id === undefined ? `#/${screen}` : `#/${screen}/${encodeURIComponent(id)}`;
}
