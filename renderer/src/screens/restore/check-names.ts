// The restore's checklist names (src/restore/*: stable names, see README "Restore") in words. Two
// carry a value: `item:<path>` (a file matched the manifest) and `models:<id>`. A name this GUI does
// not know is shown as it is. String keys are the names with `:` written `_` (i18next reads `:`
// as a namespace separator).
import type { T } from '../../i18n/i18n';
import { restoreCheckStrings } from './strings';

export { restoreCheckStrings };
import { isolate } from '../bidi';

type Strings = (typeof restoreCheckStrings)['strings']['en'];
type Key = keyof Strings;

const isKey = (k: string): k is Key => Object.hasOwn(restoreCheckStrings.strings.en, k);
const WITH_VALUE = ['item', 'models'] as const;

export function restoreCheckLabel(name: string, t: T<Strings>): string {
  const key = name.replace(/:/g, '_');
  if (isKey(key) && !WITH_VALUE.some((w) => w === key)) return t(key);
  for (const prefix of WITH_VALUE) {
    if (name.startsWith(`${prefix}:`) && name.length > prefix.length + 1) return t(prefix, { value: isolate(name.slice(prefix.length + 1)) });
  }
  return name;
}
