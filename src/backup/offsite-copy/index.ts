// Encrypted compressed offsite copies of generations (see send-copy.ts).
export { copyName, createArchive, epochOfCopyName, removeArchive, type Archive, type ArchiveOptions } from './archive.js';
export { listOffsiteCopies, type OffsiteCopyRow } from './copies-table.js';
export { planPrune, type PrunePlan } from './prune-plan.js';
export { joinRemote, rcloneCopyTo, rcloneDeleteFile, rcloneLsJson, RcloneError, type RcloneEntry, type RcloneOptions } from './rclone.js';
export {
  DEFAULT_KEEP,
  normalize as normalizeCopyDestination,
  OffsiteCopyError,
  PRUNE_FAILED_ALERT,
  sendOffsiteCopy,
  type SendOffsiteCopyOptions,
  type SendOffsiteCopyResult,
} from './send-copy.js';
