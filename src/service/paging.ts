// Query parameters of the list routes (`limit`, `order`) and the list shape OpenAI's cursor pages
// use ({"object": "list", "data", "first_id", "last_id", "has_more"}): one reading for every route.
import { badRequest } from './errors.js';

/** A whole-number query parameter in [min, max], or the fallback when absent; a 400 naming it otherwise. */
export function wholeNumber(value: string | undefined, param: string, fallback: number, min: number, max: number): number {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min || n > max) throw badRequest(`${param} must be a whole number from ${min} to ${max}.`, param);
  return n;
}

/** `order`: newest first unless "asc". */
export function orderOf(value: string | undefined): 'asc' | 'desc' {
  if (value === undefined || value === '' || value === 'desc') return 'desc';
  if (value === 'asc') return 'asc';
  throw badRequest('order must be "asc" or "desc".', 'order');
}

export interface CursorPage<T> {
  object: 'list';
  data: T[];
  first_id: string | null;
  last_id: string | null;
  has_more: boolean;
}

export function cursorPage<T extends { id: string }>(data: T[], hasMore: boolean): CursorPage<T> {
  return { object: 'list', data, first_id: data[0]?.id ?? null, last_id: data.at(-1)?.id ?? null, has_more: hasMore };
}
