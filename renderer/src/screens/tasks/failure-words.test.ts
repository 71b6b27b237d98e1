// Task failures worded per language: English keeps the server's own sentence, Arabic gets the
// sentence for a known code and the server's for an unknown one.
import { expect, test } from 'vitest';
import { failureWords } from './failure-words';
import { taskStrings } from './strings';

const ar = (key: string): string => {
  const table: Record<string, string> = taskStrings.strings.ar;
  return table[key] ?? `missing ${key}`;
};

test("a restart and a long input in Arabic; English and unknown codes keep the server's words", () => {
  expect(failureWords({ code: 'server_restarted', message: 'The service restarted while this task was unfinished.' }, 'ar', ar)).toBe(
    'أُعيد تشغيل سند قبل أن تنتهي هذه المهمة.',
  );
  expect(failureWords({ code: 'context_length_exceeded', message: 'The input is 900 tokens' }, 'ar', ar)).toMatch(/^المدخل أطول/);
  expect(failureWords({ code: 'context_length_exceeded', message: 'The input is 900 tokens' }, 'en', ar)).toBe('The input is 900 tokens');
  expect(failureWords({ code: 'something_new', message: 'Something new.' }, 'ar', ar)).toBe('Something new.');
});
