// What a browser tab without a session shows (never opened by a login link, or signed out): one
// clear panel saying how to get in, instead of every card failing with 401 on its own.
import { loginLinkRefused } from '../api/session';
import { defineStrings, setLanguage, useStrings } from '../i18n/i18n';

const ns = defineStrings('signed-out', {
  en: {
    app: 'Sanad',
    title: 'This window is not signed in',
    body: 'Sanad opens only through a one-time login link. In a terminal on this computer run {{login}} (or restart {{serve}}, which prints one), then open the link it prints. A link works once, for 10 minutes.',
    desktop: 'The desktop app signs in by itself.',
    usedTitle: 'This login link was already used or has expired',
    usedBody: 'A login link works once, for 10 minutes. For a new one, run {{login}} in a terminal on this computer, then open the link it prints.',
    switchTo: 'العربية',
    language: 'Language',
  },
  ar: {
    app: 'سند',
    title: 'هذه النافذة غير مسجّلة الدخول',
    body: 'لا يُفتح سند إلا برابط دخول لمرة واحدة. شغّل في طرفية على هذا الحاسوب الأمر {{login}} (أو أعد تشغيل {{serve}} الذي يطبع رابطًا)، ثم افتح الرابط الذي يطبعه. يعمل الرابط مرة واحدة ولمدة 10 دقائق.',
    desktop: 'تطبيق سطح المكتب يسجّل الدخول بنفسه.',
    usedTitle: 'رابط الدخول هذا استُخدم من قبل أو انتهت صلاحيته',
    usedBody: 'يعمل رابط الدخول مرة واحدة ولمدة 10 دقائق. لرابط جديد شغّل الأمر {{login}} في طرفية على هذا الحاسوب، ثم افتح الرابط الذي يطبعه.',
    switchTo: 'English',
    language: 'اللغة',
  },
});

const COMMANDS = { login: 'sanad login-link', serve: 'sanad serve' } as const;
const MARK = '\u0000';

/** The sentence with each command as left-to-right code, so it reads whole inside Arabic. */
function WithCommands({ text }: { text: string }) {
  const parts = text.split(MARK);
  return (
    <>
      {parts.map((part, i) => {
        const command = i % 2 === 1 && (part === 'login' || part === 'serve') ? COMMANDS[part] : null;
        return command ? (
          <code key={i} dir="ltr">
            {command}
          </code>
        ) : (
          <span key={i}>{part}</span>
        );
      })}
    </>
  );
}

export function SignedOut() {
  const { t, language } = useStrings(ns);
  return (
    <div className="shell">
      <header className="topbar">
        <span className="brand">{t('app')}</span>
        <button
          type="button"
          className="lang"
          lang={language === 'ar' ? 'en' : 'ar'}
          title={t('language')}
          data-testid="language-switch"
          onClick={() => setLanguage(language === 'ar' ? 'en' : 'ar')}
        >
          {t('switchTo')}
        </button>
      </header>
      <main id="main" className="content signed-out" data-testid="signed-out">
        {loginLinkRefused() ? (
          <>
            <h1 data-testid="login-link-refused">{t('usedTitle')}</h1>
            <p>
              <WithCommands text={t('usedBody', { login: `${MARK}login${MARK}` })} />
            </p>
          </>
        ) : (
          <>
            <h1>{t('title')}</h1>
            <p>
              <WithCommands text={t('body', { login: `${MARK}login${MARK}`, serve: `${MARK}serve${MARK}` })} />
            </p>
          </>
        )}
        <p className="muted">{t('desktop')}</p>
      </main>
    </div>
  );
}
