// Small, shared flag builders. Each value is one argv element (`--flag=value`), so a value that
// starts with `-` can never be read as another option.

/** `--tag=a,b`: restic splits on commas, so a tag containing one would silently become two. */
export function tagFlag(tags: readonly string[]): string {
  for (const t of tags) {
    if (t === '' || t.includes(',')) throw new Error(`The restic tag "${t}" is empty or contains a comma; use tags without commas.`);
  }
  return `--tag=${tags.join(',')}`;
}

/** restic's `--time` format, in UTC (run.ts gives restic TZ=UTC). */
export function resticTime(date: Date): string {
  return date.toISOString().slice(0, 19).replace('T', ' ');
}
