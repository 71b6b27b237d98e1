// `sanad generations show E` and `sanad generations diff E [E2]`: look inside a generation without
// restoring it, and what changed from one generation to another (or to the live data). Read-only
// everywhere: the repository (restic --no-lock), the live store, the keychain. Beside a running
// service the service reads it (and keeps it cached for the GUI). Exit 0; 1 with one sentence; 2 usage.
import { parseArgs } from 'node:util';
import { GenerationConversationPage, GenerationDiff, GenerationResponsePage, GenerationSummary } from '../../contract/history.js';
import { diffStores } from '../../history/diff.js';
import type { OpenedGeneration } from '../../history/generation-copy.js';
import { conversationsPage, liveStateOf, responsesPage, summaryOf } from '../../history/read-generation.js';
import { DeletionJournal } from '../../store/deletion-journal.js';
import { openStore, type ReadableDB } from '../../store/open.js';
import { CliError, usageError } from '../cli-error.js';
import { generationArg, openHere, serviceBody } from '../generation-access.js';
import type { Io } from '../io.js';
import { hereOrInService, LONG_REQUEST_MS } from '../running-service.js';
import { storePath } from '../../files/data-dir-layout.js';

const SHOW = { repo: { type: 'string' }, search: { type: 'string' }, after: { type: 'string' }, limit: { type: 'string' } } as const;
const DIFF = { repo: { type: 'string' } } as const;

export async function generationsCommand(args: string[], dataDir: string, io: Io, secretsFile: string | undefined): Promise<number> {
  const [sub, ...rest] = args;
  if (sub === 'show') return show(rest, dataDir, io, secretsFile);
  if (sub === 'diff') return diff(rest, dataDir, io, secretsFile);
  throw usageError(
    sub === undefined
      ? 'Say what to do: `sanad generations show E` or `sanad generations diff E [E2]`.'
      : `Unknown generations command "${sub}"; use show or diff.`,
  );
}

async function withOpened<T>(
  dataDir: string,
  repo: string,
  generations: number[],
  secretsFile: string | undefined,
  io: Io,
  fn: (opened: OpenedGeneration[], live: ReadableDB) => T,
): Promise<T> {
  const db = openStore(storePath(dataDir), { readonly: true });
  try {
    const opened: OpenedGeneration[] = [];
    try {
      for (const g of generations) opened.push(await openHere({ db, dataDir, repo, generation: g, secretsFile, io }));
      return fn(opened, db);
    } finally {
      for (const o of opened) await o.close();
    }
  } finally {
    db.close();
  }
}

async function show(args: string[], dataDir: string, io: Io, secretsFile: string | undefined): Promise<number> {
  const { values, positionals } = parseArgs({ args, options: SHOW, strict: true, allowPositionals: true });
  if (positionals.length > 1) throw usageError('`sanad generations show` takes one generation.');
  const generation = generationArg(positionals[0]);
  const repo = values.repo ?? 'local';
  if (values.limit !== undefined && !/^([1-9][0-9]?|100)$/.test(values.limit)) throw usageError('--limit takes a number from 1 to 100.');
  const query = {
    ...(values.search !== undefined ? { q: values.search } : {}),
    ...(values.after !== undefined ? { after: values.after } : {}),
    limit: Number(values.limit ?? 20),
  };
  const { summary, page, conversations } = await hereOrInService(
    dataDir,
    'sanad generations show',
    () =>
      withOpened(dataDir, repo, [generation], secretsFile, io, ([o], live) => {
        if (!o) throw new Error('unreachable: one generation was opened');
        const deleted = new Set(
          DeletionJournal.of(dataDir)
            .read()
            .map((d) => d.id),
        );
        const conversations = conversationsPage(
          o.db,
          { ...(query.q !== undefined ? { q: query.q } : {}), limit: query.limit },
          liveStateOf(live, deleted, 'conversations'),
        );
        if ('unknownCursor' in conversations) throw new Error('unreachable: the first page has no cursor');
        return { summary: summaryOf(o), page: responsesPage(o.db, query, liveStateOf(live, deleted)), conversations };
      }),
    async (call) => {
      if (!io.json) io.note(`… the running Sanad reads generation ${generation} out of "${repo}"`);
      const base = `/admin/generations/${generation}`;
      const params = new URLSearchParams({
        repo,
        limit: String(query.limit),
        ...(query.q !== undefined ? { q: query.q } : {}),
        ...(query.after !== undefined ? { after: query.after } : {}),
      });
      const s = GenerationSummary.parse(serviceBody(await call('GET', `${base}?repo=${encodeURIComponent(repo)}`, undefined, LONG_REQUEST_MS)));
      const p = GenerationResponsePage.parse(serviceBody(await call('GET', `${base}/responses?${params.toString()}`, undefined, LONG_REQUEST_MS)));
      params.delete('after');
      const c = GenerationConversationPage.parse(serviceBody(await call('GET', `${base}/conversations?${params.toString()}`, undefined, LONG_REQUEST_MS)));
      return { summary: s, page: p, conversations: c };
    },
  );
  io.result({ ...summary, responses: page, conversations }, () => describe(summary, page, conversations, query.q));
  return 0;
}

const sinceNote = (live: 'present' | 'deleted' | 'absent'): string =>
  live === 'present' ? '' : `  [${live === 'deleted' ? 'deleted since' : 'not in the live data'}]`;

function describe(s: GenerationSummary, page: GenerationResponsePage, conversations: GenerationConversationPage, q: string | undefined): string {
  const c = s.counts;
  const lines = [
    `Generation ${s.generation} in "${s.repo}": data from ${s.created_at} on ${s.host}, Sanad ${s.app_version}, store version ${s.store_version}, snapshot ${s.snapshot_id.slice(0, 8)}.`,
    `  ${c.tasks} task(s), ${c.responses} response(s), ${c.events} event(s), ${c.clients} client(s) (${c.clients_revoked} revoked), ${c.models} model(s), ${c.conversations} conversation(s); ${s.journal_entries} deletion(s) in its journal.`,
    q ? `Responses matching "${q}": ${page.total}, newest first:` : `Responses, newest first (${page.data.length} of ${page.total}):`,
    ...page.data.map((r) => `  ${r.id}  ${r.status ?? '-'}  ${JSON.stringify(r.input_preview)} → ${JSON.stringify(r.output_preview)}${sinceNote(r.live)}`),
  ];
  const last = page.data.at(-1);
  if (page.has_more && last) lines.push(`More: sanad generations show ${s.generation} --after ${last.id}${q ? ` --search ${JSON.stringify(q)}` : ''}`);
  if (conversations.total > 0 || q) {
    lines.push(
      q
        ? `Conversations matching "${q}": ${conversations.total}, the one changed last first:`
        : `Conversations, the one changed last first (${conversations.data.length} of ${conversations.total}):`,
    );
    for (const c of conversations.data) {
      lines.push(
        `  ${c.id}  ${JSON.stringify(c.title ?? '(untitled)')}  ${c.items} item(s), ${c.responses} response(s)  ${JSON.stringify(c.last_preview)}${sinceNote(c.live)}`,
      );
    }
  }
  return lines.join('\n');
}

async function diff(args: string[], dataDir: string, io: Io, secretsFile: string | undefined): Promise<number> {
  const { values, positionals } = parseArgs({ args, options: DIFF, strict: true, allowPositionals: true });
  if (positionals.length === 0 || positionals.length > 2)
    throw usageError('`sanad generations diff` takes one generation (compared with the live data) or two.');
  const from = generationArg(positionals[0]);
  const to = positionals[1] === undefined || positionals[1] === 'live' ? 'live' : generationArg(positionals[1]);
  if (to === from) throw new CliError(`Both sides are generation ${from}; name two different ones, or one and the live data.`, 2);
  const repo = values.repo ?? 'local';
  const result = await hereOrInService(
    dataDir,
    'sanad generations diff',
    () =>
      withOpened(dataDir, repo, to === 'live' ? [from] : [from, to], secretsFile, io, ([a, b], live) => {
        if (!a) throw new Error('unreachable: the first generation was opened');
        return diffStores(a.db, b?.db ?? live, { from, to });
      }),
    async (call) =>
      GenerationDiff.parse(
        serviceBody(await call('GET', `/admin/generations/${from}/diff?repo=${encodeURIComponent(repo)}&to=${to}`, undefined, LONG_REQUEST_MS)),
      ),
  );
  io.result(result, () => describeDiff(result));
  return 0;
}

function describeDiff(d: GenerationDiff): string {
  // Each item by its id and, where it has one, the name a person knows it by ("what was asked").
  const list = (ids: string[]): string => (ids.length === 0 ? 'none' : ids.map((id) => (d.names[id] ? `${id} (“${d.names[id]}”)` : id)).join(', '));
  const to = d.to === 'live' ? 'the live data' : `generation ${d.to}`;
  return [
    `From generation ${d.from} to ${to}:`,
    `  responses  added: ${list(d.responses.added)}; removed: ${list(d.responses.removed)}; changed: ${list(d.responses.changed)}`,
    `  tasks      added: ${list(d.tasks.added)}; removed: ${list(d.tasks.removed)}; changed: ${list(d.tasks.changed)}`,
    `  clients    added: ${list(d.clients.added)}; revoked: ${list(d.clients.revoked)}; removed: ${list(d.clients.removed)}`,
    `  models     added: ${list(d.models.added)}; removed: ${list(d.models.removed)}; changed: ${list(d.models.changed)}`,
    `  conversations added: ${list(d.conversations.added)}; removed: ${list(d.conversations.removed)}; changed: ${list(d.conversations.changed)}`,
    `  settings   ${d.settings.changed.length === 0 ? 'unchanged' : d.settings.changed.map((c) => `${c.key}: ${JSON.stringify(c.from)} → ${JSON.stringify(c.to)}`).join('; ')}`,
  ].join('\n');
}
