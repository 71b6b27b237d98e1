// Dates, numbers, sizes and ages formatted for the GUI's language with Intl (Arabic gets Arabic
// digits and month names; English gets en). Pure functions: the language is an argument.
import type { Language } from './i18n';
import { browserNow } from '../clock';

const locale = (lng: Language): string => (lng === 'ar' ? 'ar' : 'en');

export function formatNumber(lng: Language, n: number, options?: Intl.NumberFormatOptions): string {
  return new Intl.NumberFormat(locale(lng), options).format(n);
}

export function formatPercent(lng: Language, fraction: number): string {
  const clamped = Math.min(1, Math.max(0, fraction));
  return new Intl.NumberFormat(locale(lng), { style: 'percent', maximumFractionDigits: 0 }).format(clamped);
}

const UNITS = ['byte', 'kilobyte', 'megabyte', 'gigabyte', 'terabyte'] as const;

/** 1536 → "1.5 kB" / "١٫٥ ك.بايت" (binary steps, the units Intl knows). */
export function formatBytes(lng: Language, bytes: number): string {
  let value = Math.max(0, bytes);
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit++;
  }
  return new Intl.NumberFormat(locale(lng), {
    style: 'unit',
    unit: UNITS[unit],
    unitDisplay: 'short',
    maximumFractionDigits: value < 10 && unit > 0 ? 1 : 0,
  }).format(value);
}

/** A Unix time (seconds) as a date and time. */
export function formatDateTime(lng: Language, unixSeconds: number): string {
  return new Intl.DateTimeFormat(locale(lng), { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(unixSeconds * 1000));
}

/** A time of day as the settings keep it ("02:30", 24-hour) in the reader's way: "2:30 AM", "٢:٣٠ ص". */
export function formatTimeOfDay(lng: Language, hhmm: string): string {
  const [hours = 0, minutes = 0] = hhmm.split(':').map(Number);
  return new Intl.DateTimeFormat(locale(lng), { hour: 'numeric', minute: '2-digit', timeZone: 'UTC' }).format(Date.UTC(2000, 0, 1, hours, minutes));
}

/** How long ago (or from now), in the largest whole unit: "3 hours ago", "in 2 days". */
export function formatRelative(lng: Language, unixSeconds: number, nowMs: number = browserNow()): string {
  const diff = unixSeconds - nowMs / 1000;
  const abs = Math.abs(diff);
  const rtf = new Intl.RelativeTimeFormat(locale(lng), { numeric: 'auto' });
  // Within a minute either way is "now": a backup made a moment ago must never read "in 1 second"
  // because the server's clock is a little ahead of the browser's.
  if (abs < 60) return rtf.format(0, 'second');
  if (abs < 3600) return rtf.format(Math.round(diff / 60), 'minute');
  if (abs < 86_400) return rtf.format(Math.round(diff / 3600), 'hour');
  return rtf.format(Math.round(diff / 86_400), 'day');
}

/** A duration in seconds as "2 h 5 min" / Arabic equivalent (for countdowns and backup targets). */
export function formatDuration(lng: Language, seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = s % 60;
  const f = (v: number, unit: 'hour' | 'minute' | 'second') => new Intl.NumberFormat(locale(lng), { style: 'unit', unit, unitDisplay: 'narrow' }).format(v);
  if (h > 0) return `${f(h, 'hour')} ${f(m, 'minute')}`;
  if (m > 0) return `${f(m, 'minute')} ${f(sec, 'second')}`;
  return f(sec, 'second');
}
