// The message reader: what models write comes out as structure, and nothing in a message can
// become HTML, a script URL or a remote image.
import { describe, expect, test } from 'vitest';
import { parseInline, parseMarkdown, safeHref } from './markdown';

describe('parseMarkdown', () => {
  test('headings, paragraphs with line breaks, lists, quotes, rules and fenced code', () => {
    const tree = parseMarkdown('# Title\n\nfirst line\nsecond line\n\n- one\n- two\n\n1. a\n2. b\n\n> quoted\n\n---\n\n```js\nconst x = 1;\n```');
    expect(tree.map((b) => b.kind)).toEqual(['heading', 'paragraph', 'list', 'list', 'quote', 'rule', 'code']);
    expect(tree[1]).toEqual({ kind: 'paragraph', inlines: [{ kind: 'text', text: 'first line' }, { kind: 'break' }, { kind: 'text', text: 'second line' }] });
    const [, , bullets, numbers] = tree;
    expect(bullets).toMatchObject({ kind: 'list', ordered: false, items: [[{ kind: 'paragraph' }], [{ kind: 'paragraph' }]] });
    expect(numbers).toMatchObject({ kind: 'list', ordered: true, start: 1 });
    expect(tree[6]).toEqual({ kind: 'code', lang: 'js', text: 'const x = 1;' });
  });

  test('a fence still open (a reply being written) is code up to the end', () => {
    expect(parseMarkdown('Here:\n```python\nprint(1)\nprint(2)')).toEqual([
      { kind: 'paragraph', inlines: [{ kind: 'text', text: 'Here:' }] },
      { kind: 'code', lang: 'python', text: 'print(1)\nprint(2)' },
    ]);
  });

  test('raw HTML stays text, never markup', () => {
    const tree = parseMarkdown('<img src=x onerror=alert(1)> and <script>alert(2)</script>');
    expect(tree).toEqual([{ kind: 'paragraph', inlines: [{ kind: 'text', text: '<img src=x onerror=alert(1)> and <script>alert(2)</script>' }] }]);
  });

  test('deeply nested quotes end as text instead of exhausting the stack', () => {
    const tree = parseMarkdown(`${'>'.repeat(5000)} deep`);
    expect(tree[0]?.kind).toBe('quote');
  });
});

describe('parseInline', () => {
  test('emphasis, strong, strike, code and escapes', () => {
    expect(parseInline('a *b* **c** ~~d~~ `e*f` \\*g')).toEqual([
      { kind: 'text', text: 'a ' },
      { kind: 'em', children: [{ kind: 'text', text: 'b' }] },
      { kind: 'text', text: ' ' },
      { kind: 'strong', children: [{ kind: 'text', text: 'c' }] },
      { kind: 'text', text: ' ' },
      { kind: 'del', children: [{ kind: 'text', text: 'd' }] },
      { kind: 'text', text: ' ' },
      { kind: 'code', text: 'e*f' },
      { kind: 'text', text: ' *g' },
    ]);
  });

  test('underscores inside words are not emphasis', () => {
    expect(parseInline('snake_case_name and _this_')).toEqual([
      { kind: 'text', text: 'snake_case_name and ' },
      { kind: 'em', children: [{ kind: 'text', text: 'this' }] },
    ]);
  });

  test('links keep only http(s) and mailto addresses; anything else stays text', () => {
    expect(parseInline('[docs](https://example.org/a?b=1)')).toEqual([
      { kind: 'link', href: 'https://example.org/a?b=1', children: [{ kind: 'text', text: 'docs' }] },
    ]);
    expect(parseInline('[x](javascript:alert(1))')).toEqual([
      { kind: 'text', text: '[x](javascript:alert(1)' },
      { kind: 'text', text: ')' },
    ]);
    expect(parseInline('[f](file:///etc/passwd) [d](data:text/html,hi)').some((n) => n.kind === 'link')).toBe(false);
    expect(parseInline('see https://example.com/x.')).toEqual([
      { kind: 'text', text: 'see ' },
      { kind: 'link', href: 'https://example.com/x', children: [{ kind: 'text', text: 'https://example.com/x' }] },
      { kind: 'text', text: '.' },
    ]);
  });

  test('an image is never fetched: it is a link to it, named by its alt text', () => {
    expect(parseInline('![a cat](https://example.org/cat.png)')).toEqual([
      { kind: 'link', href: 'https://example.org/cat.png', children: [{ kind: 'text', text: 'a cat' }] },
    ]);
  });

  test('tens of thousands of unclosed delimiters are read as text, each closer looked for once', () => {
    const text = '[x <y *z '.repeat(20_000);
    // A reader that looked for each opener's closer again would take minutes here (past the test's
    // time limit); one that remembers an absent closer reads it in milliseconds.
    const out = parseInline(text);
    expect(out.every((n) => n.kind === 'text')).toBe(true);
    expect(out.map((n) => (n.kind === 'text' ? n.text : '')).join('') === text).toBe(true);
  });
});

test('safeHref refuses what is not a web or mail address', () => {
  expect(safeHref('https://example.org')).toBe('https://example.org/');
  expect(safeHref('mailto:me@example.org')).toBe('mailto:me@example.org');
  for (const bad of ['javascript:alert(1)', 'JaVaScRiPt:x', 'data:text/html,x', 'file:///x', 'vbscript:x', '//evil.example', 'http//x'])
    expect(safeHref(bad)).toBeNull();
});
