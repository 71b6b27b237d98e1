// Drill check names are `<repo>:<check>` (`local:vault:decrypt`) or a name of their own
// (`offsite-copy:read-back`). The GUI shows the check in words and the repository beside it; a
// name it does not know is shown as it is, never hidden. String keys are the check names with `:`
// written `_` (i18next reads `:` as a namespace separator).
import type { T } from '../../i18n/i18n';
import { checkStrings } from './strings';

export { checkStrings };

type CheckKey = keyof (typeof checkStrings)['strings']['en'];

const isKey = (k: string): k is CheckKey => Object.hasOwn(checkStrings.strings.en, k);
/** [check name, key], longest name first, so `read-data:recheck` wins over `read-data`. */
const KNOWN: Array<[string, CheckKey]> = Object.keys(checkStrings.strings.en)
  .filter(isKey)
  .map((key): [string, CheckKey] => [key.replace(/_/g, ':'), key])
  .sort((a, b) => b[0].length - a[0].length);

export interface CheckName {
  /** The repository the check is about, or null. */
  repo: string | null;
  /** The known check, or null for a name this GUI does not know. */
  key: CheckKey | null;
  raw: string;
}

export function parseCheckName(name: string): CheckName {
  for (const [check, key] of KNOWN) {
    if (name === check) return { repo: null, key, raw: name };
    if (name.endsWith(`:${check}`) && name.length > check.length + 1) return { repo: name.slice(0, -(check.length + 1)), key, raw: name };
  }
  return { repo: null, key: null, raw: name };
}

export function checkLabel(name: CheckName, t: T<(typeof checkStrings)['strings']['en']>): string {
  return name.key === null ? name.raw : t(name.key);
}
