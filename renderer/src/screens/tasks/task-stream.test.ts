import { describe, expect, test } from 'vitest';
import { changesState, initialStream, MAX_EVENTS, streamReducer, thoughtSeconds, type StreamEvent, type StreamState } from './task-stream';

const ev = (sequence_number: number, type: string, extra: Partial<StreamEvent> = {}): StreamEvent => ({
  type,
  sequence_number,
  created_at: 1000 + sequence_number,
  ...extra,
});
const delta = (seq: number, text: string) => ev(seq, 'response.output_text.delta', { delta: text });
const apply = (state: StreamState, ...events: StreamEvent[]) => streamReducer(state, { kind: 'events', events });

describe('task text accumulation from events', () => {
  test('deltas append in sequence order, even when a batch arrives out of order', () => {
    const s = apply(initialStream, ev(1, 'response.created'), ev(2, 'response.loading'), ev(3, 'response.in_progress'), delta(5, 'lo'), delta(4, 'Hel'));
    expect(s.text).toBe('Hello');
    expect(s.lastSeq).toBe(5);
    expect(s.events.map((e) => e.seq)).toEqual([1, 2, 3, 4, 5]);
    expect(s.events[3]).toEqual({ seq: 4, type: 'response.output_text.delta', at: 1004, detail: 'Hel' });
    expect(s.ended).toBe(false);
  });

  test('a replay after a reconnect repeats nothing (events at or below the last sequence are ignored)', () => {
    const s1 = apply(initialStream, ev(1, 'response.created'), delta(2, 'ab'));
    const s2 = apply(s1, delta(2, 'ab'), delta(3, 'c'));
    expect(s2.text).toBe('abc');
    expect(s2.total).toBe(3);
    // Nothing new: the very same state object (no re-render).
    expect(apply(s2, delta(3, 'c'), delta(1, 'x'))).toBe(s2);
  });

  test('response.queued (a retry after a restart) drops the partial text; output_text.done replaces it with the whole text', () => {
    let s = apply(initialStream, ev(1, 'response.created'), delta(2, 'partial'));
    s = apply(s, ev(3, 'response.queued', { reason: 'server_restarted' }), ev(4, 'response.in_progress'), delta(5, 'fresh'));
    expect(s.text).toBe('fresh');
    s = apply(s, ev(6, 'response.output_text.done', { text: 'fresh text' }), ev(7, 'response.completed'));
    expect(s.text).toBe('fresh text');
    expect(s.ended).toBe(true);
  });

  test('a resumed task continues its text (in_progress with resumed: true does not reset)', () => {
    const s = apply(initialStream, delta(1, 'one '), ev(2, 'response.in_progress', { resumed: true }), delta(3, 'two'));
    expect(s.text).toBe('one two');
  });

  test('failed and cancelled end the stream too; text stays what arrived', () => {
    expect(apply(initialStream, delta(1, 'x'), ev(2, 'response.cancelling'), ev(3, 'response.cancelled'))).toMatchObject({ text: 'x', ended: true });
    expect(apply(initialStream, ev(1, 'response.failed')).ended).toBe(true);
  });

  test('only the newest events are kept for the list, while the text and the count keep everything', () => {
    const many = Array.from({ length: MAX_EVENTS + 50 }, (_, i) => delta(i + 1, 'a'));
    const s = apply(initialStream, ...many);
    expect(s.events).toHaveLength(MAX_EVENTS);
    expect(s.events[0]?.seq).toBe(51);
    expect(s.total).toBe(MAX_EVENTS + 50);
    expect(s.text).toBe('a'.repeat(MAX_EVENTS + 50));
  });

  test('reset starts over; only state-changing events make the page re-read the task', () => {
    expect(streamReducer(apply(initialStream, delta(1, 'a')), { kind: 'reset' })).toBe(initialStream);
    expect(changesState('response.output_text.delta')).toBe(false);
    expect(changesState('response.cancelling')).toBe(true);
    expect(changesState('response.completed')).toBe(true);
  });
});

describe("a reasoning model's thought", () => {
  const think = (seq: number, text: string) => ev(seq, 'response.reasoning_text.delta', { delta: text });
  test('is kept apart from the text, with the seconds it took; a retry drops it with the text', () => {
    let s = apply(initialStream, ev(1, 'response.created'), ev(2, 'response.in_progress'), think(3, 'Why?'), think(5, 'Plan'));
    expect(s.thought).toEqual({ text: 'Why?Plan', done: false, startedAt: 1003, endedAt: null });
    expect(thoughtSeconds(s.thought)).toBeNull();
    expect(s.text).toBe('');
    expect(s.events.at(-1)?.detail).toBe('Plan');
    s = apply(s, ev(9, 'response.reasoning_text.done', { text: 'Why? Plan' }), delta(10, 'OK'));
    expect(s.thought).toEqual({ text: 'Why? Plan', done: true, startedAt: 1003, endedAt: 1009 });
    expect(thoughtSeconds(s.thought)).toBe(6);
    expect(s.text).toBe('OK');
    s = apply(s, ev(11, 'response.queued'));
    expect([s.thought, s.text]).toEqual([null, '']);
  });

  test('thought deltas are not state changes', () => {
    expect(changesState('response.reasoning_text.delta')).toBe(false);
    expect(changesState('response.reasoning_text.done')).toBe(false);
    expect(changesState('response.output_item.added')).toBe(true);
  });
});
