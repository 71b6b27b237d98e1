// The recovery screen: its content rendered here, in this process (it must work when nothing else
// does), and put on the page by one small script (recovery-script.ts) that signs in with the
// window's one-time code and sends the session as a header, as the GUI does: never a cookie,
// which a browser would hand to every other port of 127.0.0.1. A strict CSP; the script is served
// from this server, and the content it inserts is escaped here.
import { readLastGood } from '../../repository/last-good.js';
import type { RestoreResult } from '../../restore/restore-generation.js';
import { RECOVERY_TEXT, type RecoveryLanguage } from './recovery-text.js';

export type RecoveryState =
  { phase: 'idle' } | { phase: 'restoring'; target: string } | { phase: 'done'; result: RestoreResult } | { phase: 'opening'; target: string };

const esc = (s: string): string => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export const RECOVERY_CSS = `body{font:16px/1.5 system-ui,sans-serif;max-width:46rem;margin:2rem auto;padding:0 1rem;color:#1d232b;background:#fbfbfa}
h1{font-size:1.5rem}section{border:1px solid #d9dde3;border-radius:8px;padding:1rem 1.25rem;margin-block:1rem;background:#fff}
.bad{border-inline-start:4px solid #b3261e}.ok{border-inline-start:4px solid #1b7a3a}code,bdi.path{font-family:ui-monospace,monospace;word-break:break-all}
input[type=text]{width:100%;box-sizing:border-box;padding:.5rem;font:inherit}button{font:inherit;padding:.5rem 1rem;margin-block-start:.5rem;margin-inline-end:.5rem}
ul{padding-inline-start:1.25rem}@media (prefers-color-scheme:dark){body{background:#15181c;color:#e6e8eb}section{background:#1d2126;border-color:#343a42}}`;

export interface PageInput {
  lang: RecoveryLanguage;
  dataDir: string;
  storeFile: string;
  reason: string;
  suggestedTarget: string;
  state: RecoveryState;
  canShowFolder: boolean;
}

function lastGoodLine(dataDir: string, lang: RecoveryLanguage): string {
  const last = readLastGood(dataDir);
  if (!last) return esc(RECOVERY_TEXT[lang].none);
  const when = new Date(last.finished_at * 1000).toLocaleString(lang === 'ar' ? 'ar' : 'en', { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' });
  return `${esc(when)} UTC · ${esc(RECOVERY_TEXT[lang].generation)} <bdi>${last.generation}</bdi> · ${esc(last.repositories.map((r) => r.name).join(', '))}`;
}

function body(p: PageInput): string {
  const T = RECOVERY_TEXT[p.lang];
  const s = p.state;
  if (s.phase === 'restoring') return `<section><p>${esc(T.restoring)}</p><p><bdi class="path">${esc(s.target)}</bdi></p></section>`;
  if (s.phase === 'opening') return `<section class="ok"><p>${esc(T.opening)}</p></section>`;
  const result = s.phase === 'done' ? s.result : null;
  const checks = result ? `<ul>${result.checks.map((c) => `<li>${c.ok ? '✓' : '✗'} <code>${esc(c.name)}</code>: ${esc(c.detail)}</li>`).join('')}</ul>` : '';
  if (result?.ok) {
    return `<section class="ok"><p>${esc(T.restored)} <bdi class="path">${esc(result.target)}</bdi></p>${checks}
<form method="post" action="/recovery/open"><input type="hidden" name="target" value="${esc(result.target)}"><button type="submit">${esc(T.open)}</button></form></section>`;
  }
  const failure = result ? `<section class="bad"><p><strong>${esc(T.failed)}</strong>: ${esc(result.error ?? '')}</p>${checks}</section>` : '';
  return `${failure}<section><h2>${esc(T.restoreHeading)}</h2><p>${esc(T.restoreHelp)}</p>
<form method="post" action="/recovery/restore"><label for="target">${esc(T.folder)}</label>
<input type="text" id="target" name="target" dir="ltr" value="${esc(result?.target ?? p.suggestedTarget)}" required>
<button type="submit">${esc(T.restore)}</button></form>
${p.canShowFolder ? `<form method="post" action="/recovery/show-folder"><button type="submit">${esc(T.showFolder)}</button></form>` : ''}
<p><small>${esc(T.offsite)}</small></p></section>`;
}

/** The screen's content: the body's HTML, its title, and whether to ask again soon (restoring). */
export function recoveryContent(p: PageInput): { html: string; title: string; refresh: boolean } {
  const T = RECOVERY_TEXT[p.lang];
  const html = `<h1>${esc(T.title)}</h1><section class="bad" data-testid="damage"><p>${esc(T.damaged)}</p>
<p>${esc(T.file)}: <bdi class="path">${esc(p.storeFile)}</bdi><br><small dir="ltr">${esc(p.reason)}</small></p>
<p>${esc(T.lastGood)}: ${lastGoodLine(p.dataDir, p.lang)}</p></section>${body(p)}`;
  return { html, title: T.title, refresh: p.state.phase === 'restoring' };
}

/** The page the window loads: its language and direction, the stylesheet, the script; no data. */
export function recoveryShell(lang: RecoveryLanguage): string {
  const T = RECOVERY_TEXT[lang];
  return `<!doctype html><html lang="${lang}" dir="${lang === 'ar' ? 'rtl' : 'ltr'}"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1"><title>${esc(T.title)}</title><link rel="stylesheet" href="/recovery.css">
<script src="/recovery.js" defer></script></head><body><p>${esc(T.signIn)}</p></body></html>`;
}

/** What a window without a session sees: nothing about the data. */
export function signInContent(lang: RecoveryLanguage): { html: string; title: string; refresh: boolean } {
  const T = RECOVERY_TEXT[lang];
  return { html: `<p>${esc(T.signIn)}</p>`, title: T.title, refresh: false };
}
