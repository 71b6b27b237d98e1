// A real progress bar: a native <progress> (screen readers announce it) with the numbers beside it.
// Without a known total it is indeterminate rather than a fake percentage.
import { formatBytes, formatNumber, formatPercent } from '../i18n/format';
import { defineStrings, useStrings } from '../i18n/i18n';

const ns = defineStrings('progress', {
  en: { files: '{{done}} of {{total}} files', bytes: '{{done}} of {{total}}', working: 'Working…' },
  ar: { files: '{{done}} من {{total}} ملفًا', bytes: '{{done}} من {{total}}', working: 'جارٍ العمل…' },
});

export interface ProgressValue {
  /** 0..1, or null when unknown. */
  fraction: number | null;
  filesDone?: number;
  filesTotal?: number;
  bytesDone?: number;
  bytesTotal?: number;
  /** What is happening now, already translated. */
  step?: string;
}

export function ProgressBar({ label, value }: { label: string; value: ProgressValue }) {
  const { t, language } = useStrings(ns);
  const fraction = value.fraction === null ? null : Math.min(1, Math.max(0, value.fraction));
  return (
    <div className="progress" role="group" aria-label={label}>
      <div className="progress-head">
        <span>{value.step ?? label}</span>
        <span className="progress-percent">{fraction === null ? t('working') : formatPercent(language, fraction)}</span>
      </div>
      {fraction === null ? <progress aria-label={label} /> : <progress aria-label={label} max={1} value={fraction} />}
      <div className="progress-detail">
        {value.filesTotal !== undefined && value.filesTotal > 0 && (
          <span>{t('files', { done: formatNumber(language, value.filesDone ?? 0), total: formatNumber(language, value.filesTotal) })}</span>
        )}
        {value.bytesTotal !== undefined && value.bytesTotal > 0 && (
          <span>{t('bytes', { done: formatBytes(language, value.bytesDone ?? 0), total: formatBytes(language, value.bytesTotal) })}</span>
        )}
      </div>
    </div>
  );
}
