import { describe, expect, test } from 'vitest';
import { defineStrings, i18next } from './i18n';

const ns = defineStrings('plural-test', {
  en: { files_one: '{{n}} file', files_other: '{{n}} files' },
  ar: { files_one: 'ملف واحد', files_other: 'عدد الملفات: {{n}}', files_two: 'ملفان' },
});

describe('Arabic plurals', () => {
  test('every Arabic form is Arabic: a form the table lacks reads as its _other, never as English', () => {
    const t = i18next.getFixedT('ar', ns.name);
    const said = (count: number): string => t('files', { count, n: String(count) });
    expect(said(1)).toBe('ملف واحد');
    expect(said(2)).toBe('ملفان');
    for (const count of [0, 3, 10, 11, 99, 100, 101]) expect(said(count), String(count)).toBe(`عدد الملفات: ${count}`);
    expect(i18next.getFixedT('en', ns.name)('files', { count: 3, n: '3' })).toBe('3 files');
  });
});
