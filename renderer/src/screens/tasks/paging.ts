// Cursor paging for the task list (GET /v1/tasks is newest first with `after` = the last id of the
// previous page). "Previous" needs no server cursor: the cursors that led here are kept as a stack.
// A change of filter starts again at the first page.
import type { TaskStatus } from './api';

export const PAGE_SIZE = 50;

export interface ListView {
  status: TaskStatus | null;
  model: string | null;
  /** The `after` cursor of each page before this one; empty on the first page. */
  cursors: readonly string[];
}

export const firstView: ListView = { status: null, model: null, cursors: [] };

export function currentCursor(view: ListView): string | null {
  return view.cursors.at(-1) ?? null;
}

export function nextPage(view: ListView, lastIdOnPage: string | undefined): ListView {
  return lastIdOnPage === undefined ? view : { ...view, cursors: [...view.cursors, lastIdOnPage] };
}

export function previousPage(view: ListView): ListView {
  return view.cursors.length === 0 ? view : { ...view, cursors: view.cursors.slice(0, -1) };
}

export function withFilter(view: ListView, filter: { status?: TaskStatus | null; model?: string | null }): ListView {
  return { status: filter.status === undefined ? view.status : filter.status, model: filter.model === undefined ? view.model : filter.model, cursors: [] };
}

/** The query string of the page's request. */
export function listQuery(view: ListView): string {
  const q = new URLSearchParams({ limit: String(PAGE_SIZE) });
  if (view.status) q.set('status', view.status);
  if (view.model) q.set('model', view.model);
  const after = currentCursor(view);
  if (after) q.set('after', after);
  return q.toString();
}
