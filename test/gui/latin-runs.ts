// The Latin-letter runs a reader of the Arabic GUI would meet as prose: the visible text of an
// element without what is never translated (code, names and paths isolated in <bdi>, anything
// marked translate="no" or lang="en", and the language button, which names the other language).
import type { Page } from 'playwright-core';

const PROSE = (selector: string): string => `(() => {
  const root = document.querySelector(${JSON.stringify(selector)});
  if (!root) return '';
  const copy = root.cloneNode(true);
  for (const n of copy.querySelectorAll('code, bdi, kbd, .verbatim, [translate="no"], [lang="en"], [data-testid="language-switch"], script, style')) n.remove();
  // innerText needs layout: the copy is measured in a hidden box of the same document.
  const box = document.createElement('div');
  box.style.cssText = 'position:absolute;left:-99999px;top:0;width:1000px';
  box.appendChild(copy);
  document.body.appendChild(box);
  const text = box.innerText;
  box.remove();
  return text;
})()`;

/** The prose of `selector`, as a reader sees it. */
export async function proseOf(page: Page, selector: string): Promise<string> {
  return String(await page.evaluate(PROSE(selector)));
}

/** Runs of two or more Latin letters in the prose, with a little context each. */
export function latinRuns(text: string, allowed: readonly RegExp[] = []): string[] {
  const out: string[] = [];
  // A value between Unicode isolates (FSI … PDI) is a name or a path, put into a sentence as it is.
  const prose = text.replace(/\u2068[^\u2069]*\u2069/g, ' ');
  for (const m of prose.matchAll(/[A-Za-z][A-Za-z0-9'’-]+(?:[ .,:()]+[A-Za-z][A-Za-z0-9'’-]+)*/g)) {
    if (allowed.some((a) => a.test(m[0]))) continue;
    if (!out.includes(m[0])) out.push(m[0]);
  }
  return out;
}

/** Leaf elements whose whole text is a raw value of the API (`completed`, `fail`), not a word. */
export async function rawValues(page: Page, pattern: RegExp): Promise<string[]> {
  const texts: unknown = await page.evaluate(`(() => [...document.querySelectorAll('main *')]
    .filter((e) => e.children.length === 0 && !e.closest('code, bdi, [translate="no"], option, script, style'))
    .map((e) => (e.textContent ?? '').trim()))()`);
  return Array.isArray(texts) ? texts.filter((t): t is string => typeof t === 'string' && pattern.test(t)) : [];
}
