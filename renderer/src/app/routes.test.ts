import { describe, expect, test } from 'vitest';
import { href, parseRoute } from './routes';

describe('hash routes', () => {
  test('an empty or unknown hash is the overview', () => {
    expect(parseRoute('')).toEqual({ screen: 'overview', id: null });
    expect(parseRoute('#/nowhere/1')).toEqual({ screen: 'overview', id: null });
  });
  test('a screen and an id round-trip through href, including characters that need escaping', () => {
    const id = 'task_01 ä/x';
    expect(parseRoute(href('tasks', id))).toEqual({ screen: 'tasks', id });
    expect(parseRoute(href('restore'))).toEqual({ screen: 'restore', id: null });
  });
});
