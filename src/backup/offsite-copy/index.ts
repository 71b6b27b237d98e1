// Encrypted compressed offsite copies of generations (see send-copy.ts).
export { copyName, createArchive, epochOfCopyName, removeArchive, type Archive, type ArchiveOptions } from './archive.js';
export { planPrune, type PrunePlan } from './prune-plan.js';
export { DEFAULT_KEEP, OffsiteCopyError, PRUNE_FAILED_ALERT, sendOffsiteCopy, type SendOffsiteCopyOptions, type SendOffsiteCopyResult } from './send-copy.js';
