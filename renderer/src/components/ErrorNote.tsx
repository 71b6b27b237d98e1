// An error shown where it happened, in words: the server's own sentence (the contract makes it one
// clear sentence plus what to do) or, for a network failure, what to check.
import { ApiError } from '../api/http';
import { defineStrings, useStrings } from '../i18n/i18n';
import type { ErrorCode } from '../../../src/contract/error-codes';

const ns = defineStrings('errors', {
  en: {
    unreachable: 'Sanad did not answer. Check that the service is running, then try again.',
    signedOut: 'This window is not signed in. Open a new login link: run `sanad login-link` (a link works once, for 10 minutes).',
    unexpected: 'Something went wrong: {{message}}',
    retry: 'Try again',
    code_insufficient_storage: 'The disk holding your data is full. Free some space on it; Sanad carries on by itself.',
    code_keychain_unavailable: 'The OS keychain is not answering, so this has to wait. Unlock the keyring, then try again.',
    code_rate_limited: 'Too many requests at once; try again in a moment.',
    code_backup_running: 'A backup is running; try again when it has finished.',
    code_drill_running: 'A drill is already running; wait for it to finish.',
    code_restore_running: 'A restore is already running; wait for it to finish.',
    code_run_not_open: 'That has already finished; there is nothing to cancel.',
    code_run_elsewhere: 'That runs in a command in a terminal; stop it there with Ctrl-C.',
    code_response_not_terminal: 'A reply is still being written; stop it first, then try again.',
    code_internal_error: 'Sanad hit an unexpected error; the details are in its log.',
    code_request_too_large: 'That is too large to send (the limit is 1 MiB).',
  },
  ar: {
    unreachable: 'لم يستجب سند. تأكّد من أن الخدمة تعمل ثم أعد المحاولة.',
    signedOut: 'هذه النافذة غير مسجّلة الدخول. افتح رابط دخول جديدًا: شغّل `sanad login-link` (يعمل الرابط مرة واحدة ولمدة 10 دقائق).',
    unexpected: 'حدث خطأ: {{message}}',
    retry: 'أعد المحاولة',
    code_insufficient_storage: 'القرص الذي يحمل بياناتك ممتلئ. أفرِغ بعض المساحة فيه؛ سيتابع سَنَد عمله وحده.',
    code_keychain_unavailable: 'سلسلة مفاتيح النظام لا تستجيب، فلا بد من الانتظار. افتح قفلها ثم أعد المحاولة.',
    code_rate_limited: 'طلبات كثيرة في وقت واحد؛ أعد المحاولة بعد قليل.',
    code_backup_running: 'يجري نسخ احتياطي الآن؛ أعد المحاولة حين ينتهي.',
    code_drill_running: 'يجري اختبار استعادة الآن؛ انتظر حتى ينتهي.',
    code_restore_running: 'تجري استعادة الآن؛ انتظر حتى تنتهي.',
    code_run_not_open: 'انتهى ذلك بالفعل؛ لا شيء لإلغائه.',
    code_run_elsewhere: 'يعمل ذلك في أمر داخل طرفية؛ أوقفه هناك بالضغط على Ctrl-C.',
    code_response_not_terminal: 'ما زال ردّ قيد الكتابة؛ أوقفه أولًا ثم أعد المحاولة.',
    code_internal_error: 'واجه سند خطأً غير متوقع؛ التفاصيل في سجله.',
    code_request_too_large: 'هذا أكبر من أن يُرسَل (الحد 1 ميبيبايت).',
  },
});

const WORDED_CODES = [
  'insufficient_storage',
  'keychain_unavailable',
  'rate_limited',
  'backup_running',
  'drill_running',
  'restore_running',
  'run_not_open',
  'run_elsewhere',
  'response_not_terminal',
  'internal_error',
  'request_too_large',
] as const satisfies readonly ErrorCode[];
type WordedCode = (typeof WORDED_CODES)[number];
const isWorded = (code: string | null): code is WordedCode => WORDED_CODES.some((c) => c === code);

/**
 * The server's sentence names the specifics (a path, a number); in English it is shown as it is.
 * In another language an error the GUI knows by its code is worded in that language; one it does
 * not know stays the server's English rather than be guessed at.
 */
export function useErrorText(): (error: unknown) => string {
  const { t, language } = useStrings(ns);
  return (error) => {
    if (error instanceof ApiError) {
      if (error.status === 0) return t('unreachable');
      if (error.status === 401) return t('signedOut');
      if (language !== 'en' && isWorded(error.code)) return t(`code_${error.code}`);
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
