// The Markdown reader on adversarial text: a message is anyone's input (a client can store one in a
// conversation the GUI opens), and 320 KB of `<http://` once took 34 s. Each shape below is read at
// two sizes; the time must grow with the size, not its square (4x the text may take at most 10x the
// time, leaving room for a busy machine; a quadratic reader takes 16x), and the larger stays well
// under a second's budget per 100 KB.
import { describe, expect, it } from 'vitest';
import { parseInline, parseMarkdown } from './markdown';

/** Adversarial shapes: each repeats a piece that opens something it never closes, or backtracks. */
const SHAPES: Record<string, (n: number) => string> = {
  'repeated <http://': (n) => '<http://'.repeat(n / 8),
  'repeated http without spaces': (n) => 'xhttp://'.repeat(n / 8),
  'repeated (http://': (n) => '(http://a.b'.repeat(n / 11),
  'a long address of dots': (n) => `http://a.b/${'.'.repeat(n - 12)}x`,
  'open angle brackets': (n) => '<'.repeat(n - 1) + '>',
  'backtick runs of every length': (n) => {
    let out = '';
    for (let k = 1; out.length < n; k++) out += `${'`'.repeat(k % 40)} `;
    return out.slice(0, n);
  },
  'open brackets': (n) => '['.repeat(n - 2) + '](',
  'labels with one far parenthesis': (n) => '[a]('.repeat(n / 4 - 1) + ')',
  'quotes and emphasis runs': (n) => '*_"\'**__~~'.repeat(n / 10),
  'emphasis openers': (n) => '*a '.repeat(n / 3),
  'a heading of spaces': (n) => `# a${' '.repeat(n - 4)}x`,
  'a heading of hashes and spaces': (n) => `# ${' #'.repeat(n / 2 - 2)}x`,
  'list markers': (n) => '- '.repeat(n / 2),
  'quote markers': (n) => '> '.repeat(n / 2),
};

function timeOf(text: string): number {
  const t0 = performance.now();
  parseMarkdown(text);
  parseInline(text);
  return performance.now() - t0;
}

/** The best of a few runs: the least disturbed by the machine's other work. */
function bestOf(text: string, runs = 5): number {
  return Math.min(...Array.from({ length: runs }, () => timeOf(text)));
}

describe('the Markdown reader is linear on adversarial text', () => {
  for (const [name, make] of Object.entries(SHAPES)) {
    it(name, () => {
      const small = make(80 * 1024);
      const large = make(320 * 1024);
      const a = bestOf(small);
      const b = bestOf(large);
      // A floor for the small one's time: below ten milliseconds the ratio is mostly noise.
      const ratio = b / Math.max(a, 10);
      expect(ratio, `${name}: 80 KB in ${a.toFixed(1)} ms, 320 KB in ${b.toFixed(1)} ms`).toBeLessThan(10);
      expect(b, `${name}: 320 KB in ${b.toFixed(1)} ms`).toBeLessThan(3_200);
    });
  }

  it('still reads what models write', () => {
    const tree = parseMarkdown('# Title ##\n\nSee http://example.com/a., <https://example.org/b> and [c](https://example.net/c).');
    expect(tree[0]).toEqual({ kind: 'heading', level: 1, inlines: [{ kind: 'text', text: 'Title' }] });
    const links = JSON.stringify(tree[1]);
    expect(links).toContain('"href":"http://example.com/a"');
    expect(links).toContain('"href":"https://example.org/b"');
    expect(links).toContain('"href":"https://example.net/c"');
  });
});
