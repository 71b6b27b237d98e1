// Which tasks a caller may see or cancel: their own with `responses:write`, any with
// `tasks:read` / `tasks:write` (and `admin`). Another client's task reads as not found.
import { getResponseRow, getTask, getTaskByResponse } from '../tasks/queries.js';
import type { ResponseRow, TaskRow } from '../tasks/types.js';
import { clientIdOf, hasScope, type Principal } from './auth.js';
import type { ServiceContext } from './context.js';
import { notFound } from './errors.js';

function owns(p: Principal, task: TaskRow): boolean {
  return hasScope(p, 'responses:write') && task.client_id !== null && task.client_id === clientIdOf(p);
}

export function canRead(p: Principal, task: TaskRow): boolean {
  return hasScope(p, 'tasks:read') || owns(p, task);
}

/** Whether the caller may read what the client `clientId` made (a response, a conversation). */
export function readerOf(p: Principal): (clientId: string | null) => boolean {
  const all = hasScope(p, 'tasks:read');
  const own = hasScope(p, 'responses:write') ? clientIdOf(p) : null;
  return (clientId) => all || (own !== null && clientId === own);
}

/**
 * Whether the caller may change what the client `clientId` made (add to a conversation, delete an
 * item): its owner or admin. Reading every client's work (tasks:read) is not enough.
 */
export function changerOf(p: Principal): (clientId: string | null) => boolean {
  const admin = hasScope(p, 'admin');
  const own = hasScope(p, 'responses:write') ? clientIdOf(p) : null;
  return (clientId) => admin || (own !== null && clientId === own);
}

export function canCancel(p: Principal, task: TaskRow): boolean {
  return hasScope(p, 'tasks:write') || owns(p, task);
}

/** Deleting a response is the owner's (the contract's "own"), or admin's: tasks:write is not enough. */
export function canDelete(p: Principal, task: TaskRow): boolean {
  return hasScope(p, 'admin') || owns(p, task);
}

export function principalOf(req: { principal: Principal | null }): Principal {
  if (!req.principal) throw new Error('route reached without authentication');
  return req.principal;
}

/** A task the caller may cancel: `tasks:write` cancels any task without reading it first (the
 *  scope's promise); others' tasks read as not found, as for reading. */
export function cancellableTask(ctx: ServiceContext, p: Principal, taskId: string): TaskRow {
  const task = getTask(ctx.db, taskId);
  if (!task || !(canCancel(p, task) || canRead(p, task))) throw notFound(`Task ${taskId}`, 'task_not_found');
  return task;
}

/** The response's task, for a cancel: as cancellableTask, by response id. */
export function cancellableResponse(ctx: ServiceContext, p: Principal, responseId: string): TaskRow {
  const task = getTaskByResponse(ctx.db, responseId);
  if (!task || !(canCancel(p, task) || canRead(p, task))) throw notFound(`Response ${responseId}`, 'response_not_found');
  return task;
}

export function readableTask(ctx: ServiceContext, p: Principal, taskId: string): TaskRow {
  const task = getTask(ctx.db, taskId);
  if (!task || !canRead(p, task)) throw notFound(`Task ${taskId}`, 'task_not_found');
  return task;
}

export function readableResponse(ctx: ServiceContext, p: Principal, responseId: string): { task: TaskRow; response: ResponseRow } {
  const task = getTaskByResponse(ctx.db, responseId);
  const response = getResponseRow(ctx.db, responseId);
  if (!task || !response || !canRead(p, task)) throw notFound(`Response ${responseId}`, 'response_not_found');
  return { task, response };
}
