// What the desktop app does when something breaks, decided here so it is tested under Node:
// - the main process meets an error nobody caught: it logs it, stops the core the ordinary way (a
//   backup interrupted cleanly, the store closed), shows one box in the person's language with
//   "Save diagnostics", and exits non-zero;
// - the window's renderer dies: it is reloaded once; if it dies again soon after, the person is
//   told (with Reload and Save diagnostics) instead of reloading forever;
// - a helper process (GPU, utility, a restic child) dies: logged only; a restic child's death is
//   the job's failure, never the app's.
import { isolate, type TrayLanguage } from './tray-text.js';

/** A renderer that dies again within this long of being reloaded is not reloaded again by itself. */
export const RELOAD_AGAIN_AFTER_MS = 60_000;

/** Reasons Electron gives for a renderer that ended on purpose, not a crash. */
const NOT_A_CRASH = new Set(['clean-exit']);

export type RendererGoneAction = { action: 'ignore' } | { action: 'reload' } | { action: 'tell' };

/** Keeps the last automatic reload's time: one per window, so a crash loop ends in a sentence. */
export class RendererCrashes {
  private lastReloadAt: number | null = null;

  gone(reason: string, nowMs: number): RendererGoneAction {
    if (NOT_A_CRASH.has(reason)) return { action: 'ignore' };
    if (this.lastReloadAt !== null && nowMs - this.lastReloadAt < RELOAD_AGAIN_AFTER_MS) return { action: 'tell' };
    this.lastReloadAt = nowMs;
    return { action: 'reload' };
  }
}

export interface CrashWords {
  fatalTitle: string;
  fatalMessage: string;
  fatalDetail(error: string, logs: string): string;
  rendererTitle: string;
  rendererMessage: string;
  saveDiagnostics: string;
  quit: string;
  reload: string;
  close: string;
  saveTitle: string;
  saved(path: string): string;
}

export const CRASH_WORDS: Record<TrayLanguage, CrashWords> = {
  en: {
    fatalTitle: 'Sanad stopped',
    fatalMessage: 'Sanad met an error it did not expect and has to stop. Your data is safe: it stopped the way it does at Quit.',
    fatalDetail: (error, logs) => `${error}\n\nSave diagnostics to send with a report (no secrets are in it). The log is in ${logs}.`,
    rendererTitle: 'The Sanad window stopped',
    rendererMessage: 'The Sanad window stopped working twice in a row. Sanad itself is still running and backing up.',
    saveDiagnostics: 'Save diagnostics…',
    quit: 'Quit',
    reload: 'Reload the window',
    close: 'Close',
    saveTitle: 'Save Sanad diagnostics',
    saved: (path) => `Diagnostics saved to ${path}.`,
  },
  ar: {
    fatalTitle: 'توقف سند',
    fatalMessage: 'واجه سند خطأً لم يتوقعه ولا بد أن يتوقف. بياناتك سليمة: توقف كما يتوقف عند الخروج.',
    fatalDetail: (error, logs) => `${isolate(error)}\n\nاحفظ التشخيصات لترسلها مع بلاغك (لا أسرار فيها). السجل في ${isolate(logs)}.`,
    rendererTitle: 'توقفت نافذة سند',
    rendererMessage: 'توقفت نافذة سند عن العمل مرتين متتاليتين. سند نفسه ما زال يعمل وينسخ احتياطيًا.',
    saveDiagnostics: 'احفظ التشخيصات…',
    quit: 'أغلق',
    reload: 'أعد تحميل النافذة',
    close: 'إغلاق',
    saveTitle: 'حفظ تشخيصات سند',
    saved: (path) => `حُفظت التشخيصات في ${isolate(path)}.`,
  },
};

/** The file name the save dialog proposes: one per moment, so it never offers an existing file. */
export function diagnosticsFileName(nowMs: number): string {
  return `sanad-diagnostics-${new Date(nowMs).toISOString().replace(/[:.]/g, '-')}.tar.gz`;
}
