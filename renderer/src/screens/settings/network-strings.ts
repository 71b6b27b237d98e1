// The words of Settings' "Devices on this network" section, English and Arabic (a file of their own:
// the section is loaded with its screen part, on demand).
import { defineStrings } from '../../i18n/i18n';

export const networkStrings = defineStrings('screen-settings-network', {
  en: {
    lanTitle: 'Devices on this network',
    lanIntro:
      'A laptop or phone at home can use your models over an encrypted connection, once you pair it on the Clients screen. Only the model routes are reachable from the network; this window, the settings and the backups never are.',
    lanSwitch: 'Let devices on this network use Sanad',
    lanAddress: 'Address for devices',
    lanNoAddress: 'This computer has no network address right now.',
    lanAlso: 'Also:',
    lanFingerprint: 'Certificate fingerprint (SHA-256)',
    lanAnnounced: 'Announced on the network',
    lanAnnouncedYes: 'Yes, as a Sanad service (devices can find it by themselves)',
    lanAnnouncedNo: 'No (devices need the address)',
    lanRenews: 'Connection certificate',
    lanRenewsText: 'valid until {{date}}; renewed by itself before then, without new pairing',
    lanOff: 'Off: nothing on the network can reach Sanad.',
    lanScope: 'Each device gets its own token with only the permissions you choose; revoke a lost device on the Clients screen and it stops at once.',
    lanNewCertificate: 'New certificate',
    lanNewCertificateQuestion:
      'Make a new certificate? Every paired device stops connecting until it checks the new fingerprint and trusts it again. Do this if you think the old one was copied.',
    lanNewCertificateConfirm: 'Make a new certificate',
    lanRenewed: 'A new certificate is in use. Check the new fingerprint on each device.',
  },
  ar: {
    lanTitle: 'الأجهزة على هذه الشبكة',
    lanIntro:
      'يمكن لحاسوب محمول أو هاتف في المنزل أن يستخدم نماذجك عبر اتصال مشفّر، بعد أن تقرنه في شاشة العملاء. لا يصل من الشبكة إلا مسارات النماذج؛ أما هذه النافذة والإعدادات والنسخ الاحتياطية فلا تصل إليها أبدًا.',
    lanSwitch: 'السماح لأجهزة هذه الشبكة باستخدام سند',
    lanAddress: 'العنوان للأجهزة',
    lanNoAddress: 'ليس لهذا الحاسوب عنوان على الشبكة الآن.',
    lanAlso: 'وأيضًا:',
    lanFingerprint: 'بصمة الشهادة (SHA-256)',
    lanAnnounced: 'معلَن على الشبكة',
    lanAnnouncedYes: 'نعم، كخدمة سند (تجده الأجهزة بنفسها)',
    lanAnnouncedNo: 'لا (تحتاج الأجهزة إلى العنوان)',
    lanRenews: 'شهادة الاتصال',
    lanRenewsText: 'صالحة حتى {{date}}؛ تتجدّد وحدها قبل ذلك دون إقران جديد',
    lanOff: 'متوقّف: لا شيء على الشبكة يستطيع الوصول إلى سند.',
    lanScope: 'يحصل كل جهاز على رمز وصول خاص به بالصلاحيات التي تختارها فقط؛ ألغِ صلاحية الجهاز المفقود في شاشة العملاء فيتوقّف فورًا.',
    lanNewCertificate: 'شهادة جديدة',
    lanNewCertificateQuestion:
      'إنشاء شهادة جديدة؟ يتوقّف كل جهاز مقترن عن الاتصال حتى يتحقّق من البصمة الجديدة ويثق بها من جديد. افعل هذا إن ظننت أن القديمة نُسخت.',
    lanNewCertificateConfirm: 'إنشاء شهادة جديدة',
    lanRenewed: 'الشهادة الجديدة مستعملة الآن. تحقّق من البصمة الجديدة على كل جهاز.',
  },
});
