import { describe, expect, test } from 'vitest';
import { EN_WORDINGS } from '../../../src/contract/said/index';
import { holes } from '../../../src/contract/said';
import { AR_WORDINGS } from './wordings-ar';

const params = (template: string): string[] =>
  holes(template)
    .flatMap((h) => ('param' in h && h.param !== 'n' ? [h.param] : []))
    .sort();
const LATIN_WORD = /[A-Za-z]{2,}/;

describe('the Arabic wordings', () => {
  test('every code says every parameter the English one says, and no other (the count aside)', () => {
    const arabic = new Map<string, string>(Object.entries(AR_WORDINGS));
    for (const [code, en] of Object.entries(EN_WORDINGS)) {
      const ar = arabic.get(code);
      expect(ar, code).toBeTypeOf('string');
      expect(params(ar ?? ''), code).toEqual(params(en));
    }
  });

  test('outside commands and file names in backticks, no Latin word but the names of programs', () => {
    for (const [code, ar] of Object.entries(AR_WORDINGS)) {
      const prose = ar
        .replace(/`[^`]*`/g, '')
        .replace(/\{\{\w+\}\}/g, '')
        .replace(/\b(restic|JSON|SQLite)\b/g, '');
      expect(prose, code).not.toMatch(LATIN_WORD);
    }
  });
});
