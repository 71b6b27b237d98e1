// A saying of the server (a code and its params) in the GUI's language. Names, paths, ids and a
// tool's own words stay as they are, isolated (<bdi>) so an English name cannot turn an Arabic
// sentence around, and marked translate="no"; commands and file names in backticks are <code>;
// numbers, sizes and times are written the language's way. A code this GUI does not know (a newer
// server) shows the server's English sentence, marked as English, rather than nothing.
import { Fragment, type ReactNode } from 'react';
import { holes, paramKind, templateOf, type Said as SaidValue, type SaidParam, type WordingLanguage, type Wordings } from '../../../src/contract/said';
import { useWordings, wordingLanguage } from './wordings';

export type Saying = SaidValue & { detail?: string };

function paramPart(name: string, value: SaidParam | undefined, table: Wordings, language: WordingLanguage, key: string): ReactNode {
  if (value === undefined) return null;
  if (Array.isArray(value)) {
    return value.map((s, i) => (
      <Fragment key={`${key}-${i}`}>
        {i > 0 && language.listSeparator}
        {sayingNodes(s, table, language, `${key}-${i}`)}
      </Fragment>
    ));
  }
  const kind = paramKind(name, value);
  if (kind === 'size' && typeof value === 'number') return language.size(value);
  if (kind === 'duration' && typeof value === 'number') return language.duration(value);
  if (kind === 'time' && typeof value === 'string') return <bdi key={key}>{language.time(value)}</bdi>;
  // No grouping: many numbers said are ids (a generation, a pid) that must read as written.
  if (typeof value === 'number') return new Intl.NumberFormat(language.locale, { useGrouping: false }).format(value);
  return (
    <bdi key={key} className="verbatim" translate="no">
      {value}
    </bdi>
  );
}

function sayingNodes(said: Saying, table: Wordings, language: WordingLanguage, key: string): ReactNode {
  const template = templateOf(table, said.code, said.params, language);
  if (template === null)
    return (
      <span key={key} lang="en" dir="auto" className="verbatim">
        {said.detail ?? said.code}
      </span>
    );
  const filled = (part: string, k: string): ReactNode =>
    holes(part).map((h, i) => {
      if ('text' in h) return <Fragment key={`${k}.${i}`}>{h.text}</Fragment>;
      const value = said.params[h.param] ?? (h.param === 'n' ? said.params.count : undefined);
      return <Fragment key={`${k}.${i}`}>{paramPart(h.param, value, table, language, `${k}.${i}`)}</Fragment>;
    });
  // Backticks first: a command may hold a parameter (`sanad repo test {{repo}}`).
  return template.split('`').map((part, i) =>
    i % 2 === 1 ? (
      <code key={`${key}-${i}`} translate="no" dir="ltr">
        {filled(part, `${key}-${i}`)}
      </code>
    ) : (
      <Fragment key={`${key}-${i}`}>{filled(part, `${key}-${i}`)}</Fragment>
    ),
  );
}

/** One saying as inline content; while its language's table loads, an empty busy span. */
export function Said({ said }: { said: Saying }) {
  const { table, language } = useWordings();
  if (table === null) return <span aria-busy="true" />;
  return <>{sayingNodes(said, table, wordingLanguage(language), 's')}</>;
}
