// Translations: English and Arabic. Each screen defines its strings next to itself with
// defineStrings (the Arabic table must have exactly the English keys, or the build fails) and
// registers them as an i18next namespace; useStrings gives a `t` typed to those keys.
// Direction follows the language: <html dir="rtl"> in Arabic, and the CSS uses logical properties.
import i18next from 'i18next';
import { useTranslation } from 'react-i18next';
import { initReactI18next } from 'react-i18next';

export const LANGUAGES = ['en', 'ar'] as const;
export type Language = (typeof LANGUAGES)[number];
const STORAGE_KEY = 'sanad.language';

export function isLanguage(value: unknown): value is Language {
  return value === 'en' || value === 'ar';
}

/** A key `x_other` makes `x` a plural: `t('x', { count })` picks the form by Intl.PluralRules. */
type PluralBase<E> = { [K in keyof E]: K extends `${infer B}_other` ? B : never }[keyof E];
/** Arabic has six plural forms where English has two: its table may add them for each plural. */
type ArabicPluralForms<E> = `${PluralBase<E> & string}_${'zero' | 'two' | 'few' | 'many'}`;

export type Strings<E extends Record<string, string>> = { en: E; ar: { [K in keyof E]: string } & Partial<Record<ArabicPluralForms<E>, string>> };

export interface Namespace<E extends Record<string, string>> {
  name: string;
  strings: Strings<E>;
}

/** The Arabic table must name exactly the English keys (a missing or extra key fails the build). */
export function defineStrings<const E extends Record<string, string>>(name: string, strings: Strings<E>): Namespace<E> {
  i18next.addResourceBundle('en', name, strings.en, true, true);
  i18next.addResourceBundle('ar', name, withAllArabicForms(strings.ar), true, true);
  return { name, strings };
}

/**
 * Arabic picks zero/two/few/many where English has only one/other. A form the table does not give
 * reads as its `_other` (worded to fit every number); without this i18next would fall back to the
 * English sentence for 0, 2, 3–10 and 11–99 items.
 */
export function withAllArabicForms(table: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = { ...table };
  for (const [key, value] of Object.entries(table)) {
    if (!key.endsWith('_other')) continue;
    const base = key.slice(0, -'_other'.length);
    for (const form of ['zero', 'two', 'few', 'many']) out[`${base}_${form}`] ??= value;
  }
  return out;
}

function initialLanguage(): Language {
  const saved = typeof localStorage === 'undefined' ? null : localStorage.getItem(STORAGE_KEY);
  if (isLanguage(saved)) return saved;
  const nav = typeof navigator === 'undefined' ? 'en' : navigator.language;
  return nav.toLowerCase().startsWith('ar') ? 'ar' : 'en';
}

function applyDirection(lng: string): void {
  if (typeof document === 'undefined') return;
  document.documentElement.lang = lng;
  document.documentElement.dir = i18next.dir(lng);
}

void i18next.use(initReactI18next).init({
  lng: initialLanguage(),
  fallbackLng: 'en',
  supportedLngs: [...LANGUAGES],
  resources: { en: {}, ar: {} },
  interpolation: { escapeValue: false }, // React escapes.
  initImmediate: false,
  returnNull: false,
});
applyDirection(i18next.language);
i18next.on('languageChanged', applyDirection);

const chosenListeners = new Set<(lng: Language) => void>();
let chosenHere = false;

/** The language the person just chose (the switch, the picker): shown, remembered, and told to
 *  whoever keeps it beyond this page (language-sync.ts keeps it with the core). */
export function setLanguage(lng: Language): void {
  chosenHere = true;
  applyLanguage(lng);
  for (const listener of chosenListeners) listener(lng);
}

/** Shows and remembers a language without calling it a new choice (the one the core kept). */
export function applyLanguage(lng: Language): void {
  if (typeof localStorage !== 'undefined') localStorage.setItem(STORAGE_KEY, lng);
  void i18next.changeLanguage(lng);
}

/** Whether the person chose a language on this page since it loaded. */
export const languageChosenHere = (): boolean => chosenHere;

export function onLanguageChosen(listener: (lng: Language) => void): () => void {
  chosenListeners.add(listener);
  return () => chosenListeners.delete(listener);
}

export function currentLanguage(): Language {
  return isLanguage(i18next.language) ? i18next.language : 'en';
}

/** Plural keys take `count` as a number (it picks the form); the text shows `{{n}}`, the number
 *  formatted for the language, which `t` fills in from `count` when it is not given. */
export type T<E extends Record<string, string>> = (key: (keyof E | PluralBase<E>) & string, vars?: Record<string, string | number>) => string;

/** `t` for one namespace, typed to its keys; re-renders when the language changes. */
export function useStrings<E extends Record<string, string>>(ns: Namespace<E>): { t: T<E>; language: Language } {
  const { t, i18n } = useTranslation(ns.name);
  return {
    t: (key, vars) => {
      const count = vars?.count;
      const lng = isLanguage(i18n.language) ? i18n.language : 'en';
      return t(key, typeof count === 'number' && vars?.n === undefined ? { ...vars, n: new Intl.NumberFormat(lng).format(count) } : (vars ?? {}));
    },
    language: isLanguage(i18n.language) ? i18n.language : 'en',
  };
}

export { i18next };
