// A pairing code shown large for typing into another program, with a live countdown; at zero it
// is greyed out and says it expired (the server refuses it from then on). Pure presentation: the
// code and its deadline come in as props, the clock from useCountdown.
import { CopyButton } from '../../components/CopyButton';
import { useStrings } from '../../i18n/i18n';
import { formatCountdown } from './countdown';
import { clientStrings } from './strings';
import { useCountdown } from './use-countdown';

export function PairingCode({ code, deadlineMs }: { code: string; deadlineMs: number }) {
  const { t, language } = useStrings(clientStrings);
  const { remainingS, expired } = useCountdown(deadlineMs);
  return (
    <div className={expired ? 'pairing-code expired' : 'pairing-code'} data-testid="pairing-code-card" data-expired={expired}>
      <div className="muted">{t('codeLabel')}</div>
      <div className="big-code" data-testid="pairing-code" aria-label={t('codeLabel')}>
        {code}
      </div>
      {expired ? (
        <p role="status" className="fail" data-testid="pairing-expired">
          {t('expired')}
        </p>
      ) : (
        <>
          <p role="timer" data-testid="pairing-countdown">
            {t('expiresIn', { time: formatCountdown(language, remainingS) })}
          </p>
          <div className="row">
            <CopyButton value={code} label={t('copyCode')} />
          </div>
          <p className="muted">{t('codeHelp')}</p>
        </>
      )}
    </div>
  );
}
