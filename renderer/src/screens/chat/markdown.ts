// A small Markdown reader for messages: what models write (paragraphs, headings, lists, quotes,
// fenced code, emphasis, inline code, links) into a tree that Markdown.tsx turns into React
// elements. Nothing here is ever HTML: raw HTML in a message stays text (React escapes it), an
// image is only a link to it (no remote image is fetched), and a link keeps only an http(s) or
// mailto address (anything else, javascript: included, stays text). It reads a reply while it is
// still being written, so an unclosed fence is simply code up to the end. Work is linear in the
// text (a stored message is anyone's input, and a property test holds it to that): a delimiter
// that has no closing one is looked for once, not once per opener; no regex backtracks over a line;
// an opener reads only text no other opener of its kind reads.
export type Inline =
  | { kind: 'text'; text: string }
  | { kind: 'code'; text: string }
  | { kind: 'strong' | 'em' | 'del'; children: Inline[] }
  | { kind: 'link'; href: string; children: Inline[] }
  | { kind: 'break' };

export type Block =
  | { kind: 'paragraph'; inlines: Inline[] }
  | { kind: 'heading'; /** 1 to 6, as many as the `#`s. */ level: number; inlines: Inline[] }
  | { kind: 'code'; lang: string; text: string }
  | { kind: 'quote'; blocks: Block[] }
  | { kind: 'list'; ordered: boolean; start: number; items: Block[][] }
  | { kind: 'rule' };

const MAX_DEPTH = 12;
const FENCE = /^ {0,3}(`{3,}|~{3,})\s*([^\s`]*)/;
const HEADING = /^ {0,3}(#{1,6})(?=\s|$)/;
const RULE = /^ {0,3}([-*_])(?:\s*\1){2,}\s*$/;
const QUOTE = /^ {0,3}>\s?/;
const ITEM = /^( {0,3})([-*+]|\d{1,9}[.)])(\s+|$)(.*)$/;

/** The address a link may keep: http(s) and mailto only, else null (the link stays text). */
export function safeHref(raw: string): string | null {
  const href = raw.trim().replace(/^<|>$/g, '');
  if (!/^(https?:\/\/|mailto:)/i.test(href)) return null;
  try {
    return new URL(href).href;
  } catch {
    return null;
  }
}

/** A heading's text: trimmed, without a closing run of `#` (after a space). Done by hand: a regex
 *  with a lazy group before optional spaces and `#`s backtracks quadratically on a long line. */
function headingText(rest: string): string {
  const text = rest.trim();
  let j = text.length;
  while (j > 0 && text[j - 1] === '#') j--;
  if (j === text.length) return text;
  if (j === 0) return '';
  return /\s/.test(text[j - 1] ?? '') ? text.slice(0, j).trimEnd() : text;
}

const startsBlock = (line: string): boolean => FENCE.test(line) || HEADING.test(line) || RULE.test(line) || QUOTE.test(line) || ITEM.test(line);
const blank = (line: string): boolean => line.trim() === '';

export function parseMarkdown(text: string): Block[] {
  return blocksOf(text.replace(/\r\n?/g, '\n').split('\n'), 0);
}

function blocksOf(lines: readonly string[], depth: number): Block[] {
  if (depth > MAX_DEPTH) return [{ kind: 'paragraph', inlines: [{ kind: 'text', text: lines.join('\n') }] }];
  const out: Block[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i] ?? '';
    if (blank(line)) {
      i++;
      continue;
    }
    const fence = FENCE.exec(line);
    if (fence) {
      const mark = fence[1] ?? '```';
      const body: string[] = [];
      i++;
      while (i < lines.length && !new RegExp(`^ {0,3}${mark[0] === '`' ? '`' : '~'}{${mark.length},}\\s*$`).test(lines[i] ?? '')) body.push(lines[i++] ?? '');
      i++; // the closing fence (or past the end)
      out.push({ kind: 'code', lang: fence[2] ?? '', text: body.join('\n') });
      continue;
    }
    const heading = HEADING.exec(line);
    if (heading) {
      out.push({ kind: 'heading', level: (heading[1] ?? '#').length, inlines: parseInline(headingText(line.slice(heading[0].length)), depth) });
      i++;
      continue;
    }
    if (RULE.test(line)) {
      out.push({ kind: 'rule' });
      i++;
      continue;
    }
    if (QUOTE.test(line)) {
      const inner: string[] = [];
      while (i < lines.length && QUOTE.test(lines[i] ?? '')) inner.push((lines[i++] ?? '').replace(QUOTE, ''));
      out.push({ kind: 'quote', blocks: blocksOf(inner, depth + 1) });
      continue;
    }
    const item = ITEM.exec(line);
    if (item) {
      const [block, next] = listAt(lines, i, depth);
      out.push(block);
      i = next;
      continue;
    }
    const para: string[] = [];
    while (i < lines.length && !blank(lines[i] ?? '') && (para.length === 0 || !startsBlock(lines[i] ?? ''))) para.push((lines[i++] ?? '').trim());
    out.push({ kind: 'paragraph', inlines: parseInline(para.join('\n'), depth) });
  }
  return out;
}

/** A list from line `start`: its items (each read as blocks of its own) and the line after it. */
function listAt(lines: readonly string[], start: number, depth: number): [Block, number] {
  const first = ITEM.exec(lines[start] ?? '');
  const ordered = /\d/.test(first?.[2] ?? '');
  const items: Block[][] = [];
  let i = start;
  while (i < lines.length) {
    const m = ITEM.exec(lines[i] ?? '');
    if (!m || /\d/.test(m[2] ?? '') !== ordered) break;
    const indent = (m[1] ?? '').length + (m[2] ?? '').length + Math.max(1, (m[3] ?? ' ').length);
    const body = [m[4] ?? ''];
    i++;
    while (i < lines.length) {
      const l = lines[i] ?? '';
      if (blank(l)) {
        // A blank line inside an item goes on only when the next line is indented under it.
        const nextLine = lines[i + 1] ?? '';
        if (!blank(nextLine) && /^\s{2,}/.test(nextLine)) {
          body.push('');
          i++;
          continue;
        }
        break;
      }
      if (/^\s{2,}/.test(l)) body.push(l.replace(new RegExp(`^ {0,${indent}}`), ''));
      else if (!startsBlock(l)) body.push(l);
      else break;
      i++;
    }
    items.push(blocksOf(body, depth + 1));
    if (blank(lines[i] ?? '') && ITEM.test(lines[i + 1] ?? '')) i++; // a loose list goes on
  }
  return [{ kind: 'list', ordered, start: ordered ? Number.parseInt(first?.[2] ?? '1', 10) : 1, items }, i];
}

const PUNCTUATION = /[!-/:-@[-`{-~]/;
const WORD = /[\p{L}\p{N}]/u;
/** Longer runs of backticks are text: each length is a delimiter looked for on its own. */
const MAX_TICKS = 16;
/** Longer addresses are not made links (each attempt reads the address whole). */
const MAX_URL = 2048;
const NON_SPACE_RUN = /\S+/y;
const TRAILING_PUNCTUATION = new Set(['.', ',', ';', ':', '!', '?', ')', ']', "'", '"']);

/** The end of the run of non-space characters that starts at `from`. */
function runEnd(text: string, from: number): number {
  NON_SPACE_RUN.lastIndex = from;
  return NON_SPACE_RUN.exec(text) ? NON_SPACE_RUN.lastIndex : from;
}

export function parseInline(text: string, depth = 0): Inline[] {
  const out: Inline[] = [];
  let buffer = '';
  const flush = (): void => {
    if (buffer !== '') out.push({ kind: 'text', text: buffer });
    buffer = '';
  };
  // The next place of each delimiter at or after a position; -1 once it is known to be absent.
  const seen = new Map<string, number>();
  const next = (delim: string, from: number): number => {
    const known = seen.get(delim);
    if (known === -1 || (known !== undefined && known >= from)) return known;
    const found = text.indexOf(delim, from);
    seen.set(delim, found);
    return found;
  };
  const closeStar = closerFinder(text, '*');
  const closeUnderscore = closerFinder(text, '_');
  // Text before this position was already tried as a bare address.
  let triedUntil = 0;
  const nested = (inner: string): Inline[] => (depth >= MAX_DEPTH ? [{ kind: 'text', text: inner }] : parseInline(inner, depth + 1));
  let i = 0;
  while (i < text.length) {
    const c = text[i] ?? '';
    if (c === '\\' && PUNCTUATION.test(text[i + 1] ?? '')) {
      buffer += text[i + 1];
      i += 2;
      continue;
    }
    if (c === '\n') {
      flush();
      out.push({ kind: 'break' });
      i++;
      continue;
    }
    if (c === '`') {
      let run = 1;
      while (text[i + run] === '`') run++;
      const ticks = '`'.repeat(run);
      const close = run > MAX_TICKS ? -1 : next(ticks, i + run);
      if (close > 0) {
        flush();
        out.push({ kind: 'code', text: text.slice(i + run, close).replace(/^ (.+) $/, '$1') });
        i = close + run;
        continue;
      }
      buffer += ticks;
      i += run;
      continue;
    }
    const two = text.slice(i, i + 2);
    if (two === '**' || two === '__' || two === '~~') {
      const close = next(two, i + 2);
      if (close > i + 2 && (two !== '__' || !WORD.test(text[i - 1] ?? ''))) {
        flush();
        out.push({ kind: two === '~~' ? 'del' : 'strong', children: nested(text.slice(i + 2, close)) });
        i = close + 2;
        continue;
      }
      buffer += two;
      i += 2;
      continue;
    }
    if ((c === '*' || c === '_') && !/\s/.test(text[i + 1] ?? ' ') && (c === '*' || !WORD.test(text[i - 1] ?? ''))) {
      const close = (c === '*' ? closeStar : closeUnderscore)(i + 1);
      if (close > i + 1) {
        flush();
        out.push({ kind: 'em', children: nested(text.slice(i + 1, close)) });
        i = close + 1;
        continue;
      }
    }
    if (c === '[' || (c === '!' && text[i + 1] === '[')) {
      const open = c === '!' ? i + 1 : i;
      const link = linkAt(text, open, next);
      if (link) {
        flush();
        const label = text.slice(open + 1, link.labelEnd);
        const children = label === '' ? [{ kind: 'text' as const, text: link.href }] : nested(label);
        out.push(link.safe === null ? { kind: 'text', text: text.slice(i, link.end) } : { kind: 'link', href: link.safe, children });
        i = link.end;
        continue;
      }
    }
    if (c === '<') {
      const close = next('>', i + 1);
      // Only an address with no `<` or space in it, so each `<` reads at most its own address.
      const lt = next('<', i + 1);
      const fits = close > 0 && close - i <= MAX_URL && (lt < 0 || lt > close);
      const inside = fits ? text.slice(i + 1, close) : '';
      const safe = /^(https?:\/\/|mailto:)\S+$/i.test(inside) ? safeHref(inside) : null;
      if (safe !== null) {
        flush();
        out.push({ kind: 'link', href: safe, children: [{ kind: 'text', text: inside }] });
        i = close + 1;
        continue;
      }
    }
    if ((c === 'h' || c === 'H') && i >= triedUntil && /^https?:\/\//i.test(text.slice(i, i + 8)) && !WORD.test(text[i - 1] ?? '')) {
      // One try per run of non-space text: a run that does not make a link is not read again from
      // each later "http" in it (that made 320 KB of `<http://` take half a minute).
      const end = runEnd(text, i);
      triedUntil = end;
      const url = end - i <= MAX_URL ? withoutTrailingPunctuation(text.slice(i, end)) : '';
      const safe = url === '' ? null : safeHref(url);
      if (safe !== null) {
        flush();
        out.push({ kind: 'link', href: safe, children: [{ kind: 'text', text: url }] });
        i += url.length;
        continue;
      }
    }
    buffer += c;
    i++;
  }
  flush();
  return out;
}

/** An address without the punctuation that ends the sentence around it. */
function withoutTrailingPunctuation(url: string): string {
  let end = url.length;
  while (end > 0 && TRAILING_PUNCTUATION.has(url[end - 1] ?? '')) end--;
  return url.slice(0, end);
}

/** Whether the `*` or `_` at `at` can close emphasis: not doubled, after a non-space, `_` not inside a word. */
function closesAt(text: string, c: string, at: number): boolean {
  const doubled = text[at + 1] === c || text[at - 1] === c;
  const afterSpace = /\s/.test(text[at - 1] ?? ' ');
  const inWord = c === '_' && WORD.test(text[at + 1] ?? '');
  return !doubled && !afterSpace && !inWord;
}

/**
 * The first closer of `c` at or after a position. Whether a `*` closes depends on it alone, not on
 * the opener, so the search goes on from where the last one stopped: every `*` is judged once.
 */
function closerFinder(text: string, c: string): (from: number) => number {
  let searchedFrom = Infinity;
  let found = -1;
  return (from) => {
    if (from >= searchedFrom && (found === -1 || from <= found)) return found;
    let at = text.indexOf(c, from);
    while (at >= 0 && !closesAt(text, c, at)) at = text.indexOf(c, at + 1);
    searchedFrom = from;
    found = at;
    return at;
  };
}

/** `[label](href)` at `open` (the `[`): where the label ends, the address and where it all ends. */
function linkAt(
  text: string,
  open: number,
  next: (d: string, f: number) => number,
): { labelEnd: number; href: string; safe: string | null; end: number } | null {
  const labelEnd = next('](', open + 1);
  if (labelEnd < 0) return null;
  // A label holds no `[` or line break and an address no `[`, line break or more than MAX_URL: so
  // each `[` reads only text no other `[` reads, and the whole is linear.
  const before = (delim: string, from: number, end: number): boolean => {
    const at = next(delim, from);
    return at >= 0 && at < end;
  };
  if (before('[', open + 1, labelEnd) || before('\n', open + 1, labelEnd)) return null;
  const close = next(')', labelEnd + 2);
  if (close < 0 || close - labelEnd > MAX_URL || before('[', labelEnd + 2, close) || before('\n', labelEnd + 2, close)) return null;
  const href =
    text
      .slice(labelEnd + 2, close)
      .trim()
      .split(/\s+/)[0] ?? '';
  return { labelEnd, href, safe: safeHref(href), end: close + 1 };
}
