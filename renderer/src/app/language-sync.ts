// The GUI's language kept with the core, as the `language` setting: in the desktop app the page's
// origin changes every launch, so its own storage forgets the choice; and the tray and the
// notifications follow the same setting. The core's choice is applied once the page is signed in,
// unless the person already chose on this page; every later choice is written back.
import { useEffect } from 'react';
import { z } from 'zod/v3';
import { api } from '../api/http';
import { applyLanguage, currentLanguage, LANGUAGES, languageChosenHere, onLanguageChosen } from '../i18n/i18n';

const LanguageSetting = z.object({ language: z.enum(LANGUAGES).nullable() });

export function useLanguageSync(): void {
  useEffect(() => {
    let alive = true;
    api('GET', '/admin/settings', LanguageSetting)
      .then(({ language }) => {
        if (alive && language !== null && !languageChosenHere() && language !== currentLanguage()) applyLanguage(language);
      })
      // Not kept yet (an older core) or not answering: the page's own choice stands.
      .catch(() => undefined);
    const stop = onLanguageChosen((language) => {
      api('PATCH', '/admin/settings', LanguageSetting, { language }).catch(() => undefined);
    });
    return () => {
      alive = false;
      stop();
    };
  }, []);
}
