// The ordered list of every migration. Append only.
import { lmspCore } from './0001-lmsp-core.js';
import { vault } from './0002-vault.js';
import { backups } from './0003-backups.js';
import { offsiteCopies } from './0004-offsite-copies.js';
import { drills } from './0005-drills.js';
import { taskFilters } from './0006-task-filters.js';
import { runRecords } from './0007-run-records.js';
import { bringBacks } from './0008-bring-backs.js';
import { snapshotRecords } from './0009-snapshot-records.js';
import { sweepIndex } from './0010-sweep-index.js';
import { dropSweepIndex } from './0011-drop-sweep-index.js';
import { clientAddresses } from './0012-client-addresses.js';
import { conversations } from './0013-conversations.js';
import { functionCalls } from './0014-function-calls.js';
import { idempotencySubjects } from './0015-idempotency-subjects.js';
import { conversationActivity } from './0016-conversation-activity.js';
import { modelSources } from './0017-model-sources.js';
import { alertAcks } from './0018-alert-acks.js';
import { alertSayings } from './0019-alert-sayings.js';
import { folderTargets } from './0020-folder-targets.js';
import { runs } from './0021-runs.js';
import { cachedTokens } from './0022-cached-tokens.js';
import { reasoningTokens } from './0023-reasoning-tokens.js';
import { modelPooling } from './0024-model-pooling.js';
import { stopSequence } from './0025-stop-sequence.js';
import { conversationSearch } from './0026-conversation-search.js';
import { runsOfEveryKind } from './0027-runs-of-every-kind.js';
import { pullRuns } from './0028-pull-runs.js';
import type { Migration } from './migration.js';

export type { Migration } from './migration.js';

export const MIGRATIONS: readonly Migration[] = [
  lmspCore,
  vault,
  backups,
  offsiteCopies,
  drills,
  taskFilters,
  runRecords,
  bringBacks,
  snapshotRecords,
  sweepIndex,
  dropSweepIndex,
  clientAddresses,
  conversations,
  functionCalls,
  idempotencySubjects,
  conversationActivity,
  modelSources,
  alertAcks,
  alertSayings,
  folderTargets,
  runs,
  cachedTokens,
  reasoningTokens,
  modelPooling,
  stopSequence,
  conversationSearch,
  runsOfEveryKind,
  pullRuns,
];
