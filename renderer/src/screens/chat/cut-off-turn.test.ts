import { expect, test } from 'vitest';
import type { ChatItem } from './api';
import { cutOffTurn } from './cut-off-turn';

const msg = (id: string, role: string, status = 'completed'): ChatItem => ({ id, type: 'message', role, status, content: id });
const thought = (id: string): ChatItem => ({ id, type: 'reasoning', status: 'completed', content: [{ type: 'reasoning_text', text: 'hm' }] });

test('a cut-off reply: the question and everything after it, the thought included', () => {
  expect(cutOffTurn([msg('a', 'user'), msg('b', 'assistant', 'incomplete')])).toEqual({ asked: msg('a', 'user'), itemIds: ['a', 'b'] });
  expect(cutOffTurn([msg('q', 'user'), thought('r'), msg('c', 'assistant', 'incomplete')])?.itemIds).toEqual(['q', 'r', 'c']);
});

test('a finished reply, or one with no question before it, offers nothing', () => {
  expect(cutOffTurn([msg('a', 'user'), msg('b', 'assistant')])).toBeNull();
  expect(cutOffTurn([thought('r'), msg('c', 'assistant', 'incomplete')])).toBeNull();
  expect(cutOffTurn([])).toBeNull();
});
