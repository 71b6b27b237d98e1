// The words of a stored request, for people: what the user last said, and a one-line preview of
// any text. The task list and the generation view both show them, so they are read in one place.

/** The length of a preview line, in characters (the ellipsis included). */
export const PREVIEW = 160;

/** Any text on one line, cut with an ellipsis past PREVIEW characters. */
export function preview(text: string | null): string {
  const flat = (text ?? '').replace(/\s+/g, ' ').trim();
  return flat.length > PREVIEW ? `${flat.slice(0, PREVIEW - 1)}…` : flat;
}

/** The text of a message's content: a string (older stores), or its parts' text. */
export function contentText(m: unknown): string {
  if (typeof m !== 'object' || m === null || !('content' in m)) return '';
  const content: unknown = m.content;
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((p: unknown) => (typeof p === 'object' && p !== null && 'text' in p && typeof p.text === 'string' ? p.text : '')).join('');
}

/** The last thing the user said in a stored request (its `input`, a string or messages). */
export function inputText(request: string): string {
  try {
    const parsed: unknown = JSON.parse(request);
    if (typeof parsed !== 'object' || parsed === null || !('input' in parsed)) return '';
    const input: unknown = parsed.input;
    if (typeof input === 'string') return input;
    if (!Array.isArray(input)) return '';
    return (
      input
        .map(contentText)
        .filter((t) => t !== '')
        .at(-1) ?? ''
    );
  } catch {
    return '';
  }
}
