// Every wording the server has, in English; the GUI's Arabic table must name exactly these codes.
import { sayer } from '../said.js';
import { ALERT_WORDINGS } from './alerts.js';
import { DOCTOR_WORDINGS } from './doctor.js';
import { DRILL_WORDINGS } from './drill.js';
import { RESTIC_WORDINGS } from './restic.js';
import { RESTORE_WORDINGS } from './restore.js';
import { TARGET_WORDINGS } from './targets.js';

export const EN_WORDINGS = { ...RESTIC_WORDINGS, ...DRILL_WORDINGS, ...ALERT_WORDINGS, ...DOCTOR_WORDINGS, ...RESTORE_WORDINGS, ...TARGET_WORDINGS } as const;
export type WordingCode = keyof typeof EN_WORDINGS;

/** `say('drill.lock.none')`: the code, its params and the English detail, with the code checked. */
export const say = sayer(EN_WORDINGS);
