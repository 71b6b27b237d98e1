// The frame around every screen: the navigation, the language switch and whether live updates are
// connected. Navigation is a list of links (keyboard and screen-reader friendly), the current one
// marked with aria-current. Below 900 px the navigation folds behind a Menu button. Changing screens
// moves focus to the new screen's heading (a keyboard or screen-reader user hears where they are,
// not the link they left), and the tab title names the screen.
import { signOut } from '../api/session';
import { desktopBridge } from '../platform';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { watchScrollFocus } from './scroll-focus';
import { defineStrings, setLanguage, useStrings } from '../i18n/i18n';
import { useLanguageSync } from './language-sync';
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
    menu: 'Menu',
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
    menu: 'القائمة',
  },
});

/** Focuses the first heading of #main once it is there (a lazy screen renders a moment later). */
function focusHeadingSoon(): () => void {
  let tries = 0;
  let frame = 0;
  const look = (): void => {
    const heading = document.querySelector<HTMLElement>('#main h1');
    if (heading) {
      if (!heading.hasAttribute('tabindex')) heading.setAttribute('tabindex', '-1');
      heading.focus({ preventScroll: false });
      return;
    }
    if (++tries < 120) frame = requestAnimationFrame(look);
  };
  frame = requestAnimationFrame(look);
  return () => cancelAnimationFrame(frame);
}

export function Shell({ screen, connected, children }: { screen: Screen; connected: boolean; children: ReactNode }) {
  const { t, language } = useStrings(ns);
  useLanguageSync();
  const [menuOpen, setMenuOpen] = useState(false);
  const shown = useRef<Screen | null>(null);
  const main = useRef<HTMLElement | null>(null);
  useEffect(() => (main.current ? watchScrollFocus(main.current) : undefined), []);
  useEffect(() => {
    document.title = `${t(screen)} · ${t('app')}`;
  });
  useEffect(() => {
    // Not on the first screen of a visit: the page load itself puts the reader at the top.
    const first = shown.current === null;
    shown.current = screen;
    setMenuOpen(false);
    return first ? undefined : focusHeadingSoon();
  }, [screen]);
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
        <button
          type="button"
          className="menu-button"
          aria-expanded={menuOpen}
          aria-controls="sidenav"
          data-testid="menu-button"
          onClick={() => setMenuOpen((o) => !o)}
        >
          {t('menu')}
        </button>
        <span className="brand">{t('app')}</span>
        <span className={connected ? 'live on' : 'live off'} role="status" data-testid="live-state">
          {connected ? t('live') : t('offline')}
        </span>
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
        {/* The desktop window signs itself in again at once: sign-out is for browsers. */}
        {desktopBridge() === null && (
          <button type="button" className="lang" data-testid="sign-out" onClick={() => void signOut().then(() => location.replace('/'))}>
            {t('signOut')}
          </button>
        )}
      </header>
      <nav id="sidenav" className={menuOpen ? 'sidenav open' : 'sidenav'} aria-label={t('nav')}>
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
      <main id="main" className="content" tabIndex={-1} ref={main}>
        {children}
      </main>
    </div>
  );
}
