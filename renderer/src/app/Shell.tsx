// The frame around every screen: the navigation, the language switch and whether live updates are
// connected. Navigation is a list of links (keyboard and screen-reader friendly), the current one
// marked with aria-current.
import { signOut } from '../api/session';
import { desktopBridge } from '../platform';
import type { ReactNode } from 'react';
import { defineStrings, setLanguage, useStrings } from '../i18n/i18n';
import { href, SCREENS, type Screen } from './routes';

const ns = defineStrings('shell', {
  en: {
    app: 'Sanad',
    nav: 'Sections',
    overview: 'Overview',
    chat: 'Chat',
    tasks: 'Tasks',
    models: 'Models',
    clients: 'Clients',
    backups: 'Backups',
    offsite: 'Offsite targets',
    drills: 'Drills',
    restore: 'Restore',
    settings: 'Settings',
    live: 'Live',
    offline: 'Reconnecting…',
    language: 'Language',
    switchTo: 'العربية',
    signOut: 'Sign out',
    skip: 'Skip to content',
  },
  ar: {
    app: 'سند',
    nav: 'الأقسام',
    overview: 'نظرة عامة',
    chat: 'المحادثة',
    tasks: 'المهام',
    models: 'النماذج',
    clients: 'العملاء',
    backups: 'النسخ الاحتياطي',
    offsite: 'الوجهات الخارجية',
    drills: 'اختبارات الاستعادة',
    restore: 'الاستعادة',
    settings: 'الإعدادات',
    live: 'مباشر',
    offline: 'إعادة الاتصال…',
    language: 'اللغة',
    signOut: 'تسجيل الخروج',
    switchTo: 'English',
    skip: 'انتقل إلى المحتوى',
  },
});

export function Shell({ screen, connected, children }: { screen: Screen; connected: boolean; children: ReactNode }) {
  const { t, language } = useStrings(ns);
  return (
    <div className="shell">
      {/* The hash is the router's: following "#main" would read as a screen, so focus moves by hand. */}
      <a
        className="skip-link"
        href="#main"
        onClick={(e) => {
          e.preventDefault();
          document.getElementById('main')?.focus();
        }}
      >
        {t('skip')}
      </a>
      <header className="topbar">
        <span className="brand">{t('app')}</span>
        <span className={connected ? 'live on' : 'live off'} role="status" data-testid="live-state">
          {connected ? t('live') : t('offline')}
        </span>
        <button type="button" className="lang" lang={language === 'ar' ? 'en' : 'ar'} title={t('language')} data-testid="language-switch" onClick={() => setLanguage(language === 'ar' ? 'en' : 'ar')}>
          {t('switchTo')}
        </button>
        {/* The desktop window signs itself in again at once: sign-out is for browsers. */}
        {desktopBridge() === null && (
          <button type="button" className="lang" data-testid="sign-out" onClick={() => void signOut().then(() => location.replace('/'))}>
            {t('signOut')}
          </button>
        )}
      </header>
      <nav className="sidenav" aria-label={t('nav')}>
        <ul>
          {SCREENS.map((s) => (
            <li key={s}>
              <a href={href(s)} aria-current={s === screen ? 'page' : undefined} data-testid={`nav-${s}`}>
                {t(s)}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <main id="main" className="content" tabIndex={-1}>
        {children}
      </main>
    </div>
  );
}
