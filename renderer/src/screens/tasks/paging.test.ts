import { describe, expect, test } from 'vitest';
import { firstView, listQuery, nextPage, previousPage, withFilter } from './paging';

describe('task list cursor paging', () => {
  test('next pushes the last id as the cursor, previous pops it, the first page has no cursor', () => {
    const p2 = nextPage(firstView, 'task_b');
    const p3 = nextPage(p2, 'task_a');
    expect(listQuery(firstView)).toBe('limit=50');
    expect(listQuery(p3)).toBe('limit=50&after=task_a');
    expect(previousPage(p3)).toEqual(p2);
    expect(listQuery(previousPage(p2))).toBe('limit=50');
    expect(previousPage(firstView)).toBe(firstView);
    expect(nextPage(p2, undefined)).toBe(p2);
  });

  test('a filter change keeps the other filter and starts at the first page', () => {
    const deep = nextPage(withFilter(firstView, { model: 'tiny' }), 'task_x');
    const filtered = withFilter(deep, { status: 'failed' });
    expect(filtered).toEqual({ status: 'failed', model: 'tiny', cursors: [] });
    expect(listQuery(filtered)).toBe('limit=50&status=failed&model=tiny');
    expect(withFilter(filtered, { model: null })).toEqual({ status: 'failed', model: null, cursors: [] });
  });
});
