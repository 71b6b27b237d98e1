// The words of the pairing code's part for devices on the network, English and Arabic (loaded
// with that part, on demand).
import { defineStrings } from '../../i18n/i18n';

export const pairingLanStrings = defineStrings('screen-clients-lan', {
  en: {
    qrLabel: 'QR code with the address, the pairing code and the certificate fingerprint',
    lanAddress: 'Address for devices',
    lanFingerprint: 'Certificate fingerprint (SHA-256)',
    lanPinHelp:
      'On the device, check that it shows exactly this fingerprint before you enter the code. If it shows another one, do not pair: something on the network is pretending to be Sanad.',
  },
  ar: {
    qrLabel: 'رمز QR فيه العنوان ورمز الإقران وبصمة الشهادة',
    lanAddress: 'العنوان للأجهزة',
    lanFingerprint: 'بصمة الشهادة (SHA-256)',
    lanPinHelp: 'تحقّق على الجهاز من أنه يعرض هذه البصمة بالضبط قبل إدخال رمز الإقران. إن عرض بصمة أخرى فلا تقرنه: شيء ما على الشبكة ينتحل صفة سند.',
  },
});
