// An error shown where it happened, in words: the server's own sentence (the contract makes it one
// clear sentence plus what to do) or, for a network failure, what to check.
import { ApiError } from '../api/http';
import { defineStrings, useStrings } from '../i18n/i18n';

const ns = defineStrings('errors', {
  en: {
    unreachable: 'Sanad did not answer. Check that the service is running, then try again.',
    signedOut: 'This window is no longer signed in. Open the login link that `sanad serve` printed.',
    unexpected: 'Something went wrong: {{message}}',
    retry: 'Try again',
  },
  ar: {
    unreachable: 'لم يستجب سند. تأكّد من أن الخدمة تعمل ثم أعد المحاولة.',
    signedOut: 'لم تعد هذه النافذة مسجّلة الدخول. افتح رابط الدخول الذي طبعه `sanad serve`.',
    unexpected: 'حدث خطأ: {{message}}',
    retry: 'أعد المحاولة',
  },
});

export function useErrorText(): (error: unknown) => string {
  const { t } = useStrings(ns);
  return (error) => {
    if (error instanceof ApiError) {
      if (error.status === 0) return t('unreachable');
      if (error.status === 401) return t('signedOut');
      return error.message;
    }
    return t('unexpected', { message: error instanceof Error ? error.message : String(error) });
  };
}

export function ErrorNote({ error, onRetry }: { error: unknown; onRetry?: () => void }) {
  const { t } = useStrings(ns);
  const text = useErrorText()(error);
  return (
    <div className="error-note" role="alert">
      <span>{text}</span>
      {onRetry && (
        <button type="button" onClick={onRetry}>
          {t('retry')}
        </button>
      )}
    </div>
  );
}
