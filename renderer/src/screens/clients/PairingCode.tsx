// A pairing code shown large for typing into another program, with a live countdown; at zero it
// is greyed out and says it expired (the server refuses it from then on). While devices on the
// network are on, also the address, the certificate fingerprint the device must see before it
// sends the code, and a QR code holding all three. Pure presentation: the code, its deadline and
// the network details come in as props, the clock from useCountdown.
import { CopyButton } from '../../components/CopyButton';
import { useStrings } from '../../i18n/i18n';
import { formatCountdown } from './countdown';
import { lazy, Suspense } from 'react';

// Fetched only when a code for a network device is shown, with the QR library (the GUI's size budget).
const PairingLan = lazy(() => import('./PairingLan').then((m) => ({ default: m.PairingLan })));
import { clientStrings } from './strings';
import { useCountdown } from './use-countdown';

export function PairingCode({ code, deadlineMs, lan = null }: { code: string; deadlineMs: number; lan?: { url: string; fingerprint: string } | null }) {
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
          {lan === null ? (
            <p className="muted small" data-testid="pairing-lan-off">
              {t('lanOffHint')}
            </p>
          ) : (
            <Suspense fallback={<span className="qr-code qr-placeholder" aria-hidden="true" />}>
              <PairingLan code={code} url={lan.url} fingerprint={lan.fingerprint} />
            </Suspense>
          )}
        </>
      )}
    </div>
  );
}
