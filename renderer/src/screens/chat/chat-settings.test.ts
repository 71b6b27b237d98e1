// A conversation's settings survive the trip through OpenAI-shaped metadata (16 keys, 512
// characters a value), long instructions included, and another client's keys are left alone.
import { expect, test } from 'vitest';
import { DEFAULT_SETTINGS, INSTRUCTIONS_MAX, metadataFor, settingsFrom, titleFrom, VALUE_MAX } from './chat-settings';

test('settings go into metadata and come back the same', () => {
  const s = { title: 'Trip plan', model: 'qwen', instructions: 'Be brief.', temperature: 0.7, maxOutputTokens: 256, reasoningEffort: 'low' as const };
  expect(settingsFrom(metadataFor(s))).toEqual(s);
  expect(settingsFrom({})).toEqual(DEFAULT_SETTINGS);
  expect(settingsFrom(metadataFor({ ...s, temperature: null, maxOutputTokens: null, reasoningEffort: null }))).toMatchObject({
    temperature: null,
    maxOutputTokens: null,
    reasoningEffort: null,
  });
  // An effort another client wrote that is not one of OpenAI's reads as the model's default.
  expect(settingsFrom({ reasoning_effort: 'extreme' }).reasoningEffort).toBeNull();
});

test('instructions longer than one value are kept in parts within the metadata limits', () => {
  const long = 'ع'.repeat(INSTRUCTIONS_MAX + 100);
  const m = metadataFor({ ...DEFAULT_SETTINGS, title: 't', model: 'm', instructions: long, temperature: 1 });
  expect(Object.keys(m).length).toBeLessThanOrEqual(16);
  for (const v of Object.values(m)) expect(v.length).toBeLessThanOrEqual(VALUE_MAX);
  expect(settingsFrom(m).instructions).toBe(long.slice(0, INSTRUCTIONS_MAX));
});

test("another client's metadata keys are kept; ours are replaced", () => {
  const m = metadataFor({ ...DEFAULT_SETTINGS, title: 'new' }, { title: 'old', project: 'x', instructions_3: 'stale' });
  expect(m).toMatchObject({ title: 'new', project: 'x' });
  expect(m.instructions_3).toBeUndefined();
});

test('a title is the first line, shortened at a word', () => {
  expect(titleFrom('  Hello\nsecond')).toBe('Hello');
  const t = titleFrom('word '.repeat(40));
  expect(t.length).toBeLessThanOrEqual(61);
  expect(t.endsWith('…')).toBe(true);
});
