// The wordings of the server's sayings (src/contract/said/) for the GUI's language, loaded on demand:
// the English table is the server's own, the Arabic one (wordings-ar.ts) names exactly its codes.
// Neither is in the first load; a saying shows once its language's table is here (a moment).
import { useSyncExternalStore } from 'react';
import { durationParts, type WordingLanguage, type Wordings } from '../../../src/contract/said';
import { currentLanguage, i18next, type Language } from '../i18n/i18n';
import { formatBytes } from '../i18n/format';

const loaders: Record<Language, () => Promise<Wordings>> = {
  en: () => import('./wordings-en').then((m) => m.EN_WORDINGS),
  ar: () => import('./wordings-ar').then((m) => m.AR_WORDINGS),
};

const loaded = new Map<Language, Wordings>();
const pending = new Map<Language, Promise<void>>();
const listeners = new Set<() => void>();

/** Loads a language's table (once); resolves when it is there. */
export function loadWordings(lng: Language): Promise<void> {
  if (loaded.has(lng)) return Promise.resolve();
  let p = pending.get(lng);
  if (!p) {
    p = loaders[lng]().then((table) => {
      loaded.set(lng, table);
      for (const l of listeners) l();
    });
    pending.set(lng, p);
  }
  return p;
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  i18next.on('languageChanged', listener);
  return () => {
    listeners.delete(listener);
    i18next.off('languageChanged', listener);
  };
}

/** The table of the GUI's language, or null while it loads (the call starts the load). */
export function useWordings(): { table: Wordings | null; language: Language } {
  const language = useSyncExternalStore(subscribe, currentLanguage);
  const table = useSyncExternalStore(subscribe, () => loaded.get(language) ?? null);
  if (table === null) void loadWordings(language);
  return { table, language };
}

/** How the GUI writes numbers, sizes, times and lists in a language. */
export function wordingLanguage(lng: Language): WordingLanguage {
  const locale = lng === 'ar' ? 'ar' : 'en';
  const time = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' });
  return {
    locale,
    listSeparator: lng === 'ar' ? '؛ ' : '; ',
    size: (bytes) => formatBytes(lng, bytes),
    duration: (seconds) => {
      const d = durationParts(seconds);
      return new Intl.NumberFormat(locale, { style: 'unit', unit: d.unit, unitDisplay: 'short', maximumFractionDigits: 1 }).format(d.value);
    },
    time: (iso) => {
      const ms = Date.parse(iso);
      return Number.isFinite(ms) ? time.format(new Date(ms)) : iso;
    },
  };
}
