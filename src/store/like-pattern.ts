// A person's search words as a SQL LIKE pattern (used with ESCAPE '\'): `%` and `_` in the words
// match themselves, and the words may stand anywhere in the text.
export function likePattern(q: string): string {
  return `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
