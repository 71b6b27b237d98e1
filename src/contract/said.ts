// What the server says to a person, as a code and its parameters, so each language words it itself.
// The English wording lives here, beside the codes (the server writes `detail` from it for the CLI and
// the API; the GUI words the same code in English or Arabic). A parameter is a name, a path, an id, a
// number or a tool's own words (kept as they are, never translated), or a list of other sayings.
import { z } from 'zod/v3';

export type SaidParam = string | number | Said[];
export interface Said {
  code: string;
  params: Record<string, SaidParam>;
}

export const Said: z.ZodType<Said> = z.lazy(() => z.object({ code: z.string(), params: z.record(SaidParam) }));
const SaidParam: z.ZodType<SaidParam> = z.lazy(() => z.union([z.string(), z.number(), z.array(Said)]));
export const SaidParams = z.record(SaidParam);

/** A table of wordings: `{{name}}` is a parameter; `x_one`/`x_other` make `x` a plural on `count`. */
export type Wordings = Record<string, string>;

/** The codes a table defines (a plural's base name, not its `_one`/`_other` keys). */
export type CodeOf<W extends Wordings> = { [K in keyof W]: K extends `${infer B}_${'one' | 'other'}` ? B : K }[keyof W] & string;

export interface WordingLanguage {
  /** Intl locale for plurals and numbers. */
  locale: string;
  /** Between the items of a list parameter. */
  listSeparator: string;
  /** A number parameter named `*_bytes`, as a size ("3.4 MB"). */
  size(bytes: number): string;
  /** A string parameter named `time` or `*_time` (an ISO time), as a date and time. */
  time(iso: string): string;
  /** A number parameter named `*_seconds`, as a length of time ("25 min", "3.5 h"). */
  duration(seconds: number): string;
}

/** "512 B", "3.4 MB", "1.2 GB": decimal units, as file managers show sizes. */
export function decimalSize(n: number, locale = 'en'): string {
  const units = ['B', 'kB', 'MB', 'GB', 'TB'];
  let v = n;
  let u = 0;
  while (v >= 1000 && u < units.length - 1) {
    v /= 1000;
    u++;
  }
  const digits = u === 0 || v >= 100 ? 0 : 1;
  return `${new Intl.NumberFormat(locale, { maximumFractionDigits: digits, minimumFractionDigits: digits }).format(v)} ${units[u] ?? 'TB'}`;
}

/** Minutes under an hour, hours (one decimal) above: how an age or a target is said. */
export function durationParts(seconds: number): { unit: 'minute' | 'hour'; value: number } {
  return seconds < 3600 ? { unit: 'minute', value: Math.max(1, Math.round(seconds / 60)) } : { unit: 'hour', value: Math.round(seconds / 360) / 10 };
}

// The CLI and the API keep ISO times: they are read by scripts as much as by people.
export const ENGLISH: WordingLanguage = {
  locale: 'en',
  listSeparator: '; ',
  size: (n) => decimalSize(n),
  time: (iso) => iso,
  duration: (s) => {
    const d = durationParts(s);
    return `${d.value} ${d.unit === 'minute' ? 'min' : 'h'}`;
  },
};

/** How a parameter reads by its name: sizes and times are formatted, everything else as it is. */
export function paramKind(name: string, value: string | number): 'size' | 'time' | 'duration' | 'number' | 'verbatim' {
  if (typeof value === 'number') return name.endsWith('_bytes') ? 'size' : name.endsWith('_seconds') ? 'duration' : 'number';
  return name === 'time' || name.endsWith('_time') ? 'time' : 'verbatim';
}

/** The wording of `code` in `table` for these params (plural form by `count`), or null if unknown. */
export function templateOf(table: Wordings, code: string, params: Record<string, SaidParam>, language: WordingLanguage): string | null {
  const count = params.count;
  if (typeof count === 'number') {
    const form = new Intl.PluralRules(language.locale).select(count);
    const plural = table[`${code}_${form}`] ?? table[`${code}_other`];
    if (plural !== undefined) return plural;
  }
  return table[code] ?? null;
}

/** A template cut into its text and its `{{name}}` holes, in order. */
export function holes(template: string): Array<{ text: string } | { param: string }> {
  const out: Array<{ text: string } | { param: string }> = [];
  let at = 0;
  for (const m of template.matchAll(/\{\{(\w+)\}\}/g)) {
    if (m.index > at) out.push({ text: template.slice(at, m.index) });
    out.push({ param: m[1] ?? '' });
    at = m.index + m[0].length;
  }
  if (at < template.length) out.push({ text: template.slice(at) });
  return out;
}

/** Plain text of a saying in one language (the server's `detail`, or a GUI title attribute). */
export function wordAsText(table: Wordings, said: Said, language: WordingLanguage): string {
  const template = templateOf(table, said.code, said.params, language);
  if (template === null) return said.code;
  // No grouping: many numbers here are ids (a generation, a pid) that must read as written.
  const number = new Intl.NumberFormat(language.locale, { useGrouping: false });
  return holes(template)
    .map((h) => {
      if ('text' in h) return h.text;
      const value = said.params[h.param] ?? (h.param === 'n' ? said.params.count : undefined);
      if (value === undefined) return '';
      if (typeof value !== 'object') {
        const kind = paramKind(h.param, value);
        if (kind === 'size' && typeof value === 'number') return language.size(value);
        if (kind === 'duration' && typeof value === 'number') return language.duration(value);
        if (kind === 'time' && typeof value === 'string') return language.time(value);
        return typeof value === 'number' ? number.format(value) : value;
      }
      return value.map((s) => wordAsText(table, s, language)).join(language.listSeparator);
    })
    .join('');
}

/** A saying with its English words (`detail`, or an error's message). */
export type Spoken = Said & { detail: string };

/** Builds sayings for one table with codes checked at compile time. */
export function sayer<W extends Wordings>(table: W) {
  return (code: CodeOf<W>, params: Record<string, SaidParam> = {}): Spoken => {
    const said = { code, params };
    return { ...said, detail: wordAsText(table, said, ENGLISH) };
  };
}

/** An error as a parameter: its saying when it carries one (ResticError and the like), else its message. */
export function errorParam(error: unknown): SaidParam {
  if (error instanceof Error && 'said' in error) {
    const said = Said.safeParse(error.said);
    if (said.success) return [said.data];
  }
  return error instanceof Error ? error.message : String(error);
}
