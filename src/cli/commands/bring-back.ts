// `sanad restore --generation E --response ID [--response ID …] [--undelete]`: those responses, each
// with its task and every event, copied from generation E into the live data; merged, never
// overwriting (history/bring-back.ts). Through the running service when there is one (its caches
// and streams stay right), else here under the instance lock. Exit 0 (what was skipped is said); 1 error.
import { systemClock, unixSeconds } from '../../clock.js';
import { BringBackResult, type SkipReason } from '../../contract/history.js';
import { bringBack } from '../../history/bring-back.js';
import { DeletionJournal } from '../../store/deletion-journal.js';
import { generationArg, openHere, serviceBody } from '../generation-access.js';
import type { Io } from '../io.js';
import { hereOrInService, LONG_REQUEST_MS } from '../running-service.js';
import { withStore } from '../store-access.js';

const WHY: Record<SkipReason, string> = {
  exists: 'the live data has it already',
  deleted: 'it was deleted on purpose since; add --undelete to bring it back anyway',
  not_in_generation: 'the generation does not hold it',
  unfinished: 'it was still being generated when the backup was made',
};

export async function bringBackCommand(input: {
  dataDir: string;
  io: Io;
  secretsFile: string | undefined;
  generation: number;
  repo: string;
  ids: string[];
  undelete: boolean;
}): Promise<number> {
  const { dataDir, io, generation, repo } = input;
  generationArg(String(generation));
  const result = await hereOrInService(
    dataDir,
    'sanad restore --response',
    () =>
      withStore(dataDir, async (db) => {
        const opened = await openHere({ db, dataDir, repo, generation, secretsFile: input.secretsFile, io });
        try {
          return bringBack({
            live: db,
            journal: DeletionJournal.of(dataDir),
            opened,
            ids: input.ids,
            undelete: input.undelete,
            by: 'cli',
            nowS: unixSeconds(systemClock),
          });
        } finally {
          await opened.close();
        }
      }),
    async (call) =>
      BringBackResult.parse(
        serviceBody(
          await call('POST', `/admin/generations/${generation}/bring-back`, { repo, responses: input.ids, undelete: input.undelete }, LONG_REQUEST_MS),
        ),
      ),
  );
  io.result({ generation: result.generation, repo: result.repo, brought_back: result.brought_back, skipped: result.skipped }, () =>
    [
      result.brought_back.length === 0
        ? `Nothing was brought back from generation ${generation}.`
        : `Brought back ${result.brought_back.length} response(s) from generation ${generation} with their tasks and events: ${result.brought_back.join(', ')}.`,
      ...result.skipped.map((s) => `  skipped ${s.id}: ${WHY[s.reason]}.`),
    ].join('\n'),
  );
  return 0;
}
