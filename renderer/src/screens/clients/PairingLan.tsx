// The pairing code's part for a device on the network: a QR code holding the address, the code and
// the certificate fingerprint, and the two written out for a person to compare. Loaded on demand
// (the QR library is its own chunk, fetched only when devices on the network are on).
import { useStrings } from '../../i18n/i18n';
import { pairingLanStrings } from './pairing-lan-strings';
import { groupFingerprint, pairingUri } from './pairing-uri';
import { QrCode } from './QrCode';

export function PairingLan({ code, url, fingerprint }: { code: string; url: string; fingerprint: string }) {
  const { t } = useStrings(pairingLanStrings);
  return (
    <div className="pairing-lan" data-testid="pairing-lan">
      <QrCode text={pairingUri(url, code, fingerprint)} label={t('qrLabel')} />
      <dl>
        <dt>{t('lanAddress')}</dt>
        <dd>
          <code dir="ltr" data-testid="pairing-lan-url">
            {url}
          </code>
        </dd>
        <dt>{t('lanFingerprint')}</dt>
        <dd>
          <code dir="ltr" className="fingerprint" data-testid="pairing-fingerprint">
            {groupFingerprint(fingerprint)}
          </code>
        </dd>
      </dl>
      <p className="muted small">{t('lanPinHelp')}</p>
    </div>
  );
}
