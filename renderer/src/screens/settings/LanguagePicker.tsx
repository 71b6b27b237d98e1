// The app's language: English or Arabic (right-to-left). The choice is kept in this browser.
import { isLanguage, setLanguage, useStrings } from '../../i18n/i18n';
import { settingsStrings } from './strings';

// Each language is named in itself, so a user who cannot read the current one still finds theirs.
const NAMES = { en: 'English', ar: 'العربية' } as const;

export function LanguagePicker() {
  const { t, language } = useStrings(settingsStrings);
  return (
    <section className="card" aria-labelledby="settings-language-title">
      <h2 id="settings-language-title">{t('language')}</h2>
      <label htmlFor="settings-language">{t('languageLabel')}</label>
      <select
        id="settings-language"
        value={language}
        data-testid="settings-language"
        onChange={(e) => {
          if (isLanguage(e.target.value)) setLanguage(e.target.value);
        }}
      >
        {Object.entries(NAMES).map(([code, name]) => (
          <option key={code} value={code} lang={code}>
            {name}
          </option>
        ))}
      </select>
    </section>
  );
}
