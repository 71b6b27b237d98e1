// From what the user typed to what will be downloaded, checked before the first byte: the file
// (a quant chosen for `hf:OWNER/REPO`), its size, the sha256 it must hash to, the commit it comes
// from, the model id it will get; and whether it fits the disk (refused, with the numbers) and the
// memory (said). The sentences are what the CLI prints and the GUI shows before starting.
import { statSync } from 'node:fs';
import { totalmem } from 'node:os';
import { basename } from 'node:path';
import { formatBytes, freeSpace } from '../../store/disk.js';
import { findModelBySha256, getModel } from '../../store/models.js';
import type { Db } from '../../store/open.js';
import { defaultModelId, MODEL_ID_PATTERN } from '../registry.js';
import { bestFittingQuant, fileOfQuant, type QuantFile } from './choose-quant.js';
import { downloadSource, listRepoFiles, resolvePlainUrl, resolveRepoFile, type Hub, type ResolvedFile } from './hub-client.js';
import { estimateMemoryFit, preloadInsights, type MemoryFit } from './memory-fit.js';
import { hfFileUri, parseModelUri } from './model-uri.js';
import { storePath } from '../../files/data-dir-layout.js';

export interface PullPlan {
  /** What the registry records as the source: an hf: file URI, or the URL. */
  uri: string;
  url: string;
  fileName: string;
  modelId: string;
  size: number;
  sha256: string | null;
  revision: string | null;
  /** Send the hub token with the download (only to the hub's own origin). */
  useToken: boolean;
  memory: MemoryFit | null;
  /** Bytes free where the file goes, and what this pull needs there. */
  disk: { free: number | null; needed: number };
  /** Said before starting, in order: the choice, the size and room, the memory, the checksum. */
  sentences: string[];
  /** Already registered under this id with this sha256: nothing to download. */
  alreadyHave: string | null;
  sha256From: 'hub' | 'given' | null;
  chosenQuant: string | null;
  offered: Array<{ quant: string | null; size: number }>;
}

export class PullRefusedError extends Error {
  constructor(
    message: string,
    readonly code: 'invalid_uri' | 'no_space' | 'model_exists' | 'invalid_id' | 'not_found' | 'needs_token' | 'unreachable' | 'bad_answer' | 'no_quant',
  ) {
    super(message);
    this.name = 'PullRefusedError';
  }
}

/** Room kept beside a model for the next backup: its copy of the store, plus some slack. */
export function roomForNextGeneration(dataDir: string): number {
  let store = 0;
  try {
    store = statSync(storePath(dataDir)).size;
  } catch {
    store = 0;
  }
  return store + 256 * 1024 * 1024;
}

export interface PlanInput {
  db: Db;
  dataDir: string;
  modelsDir: string;
  hub: Hub;
  uri: string;
  id?: string | undefined;
  /** For a plain URL: the sha256 its publisher gives (the hub's forms bring their own). */
  sha256?: string | undefined;
  /** Bytes of this file an earlier attempt already downloaded (they need no room again). */
  alreadyDownloaded?: (url: string, fileName: string) => Promise<number>;
}

export async function planPull(input: PlanInput): Promise<PullPlan> {
  const { hub } = input;
  const parsed = parseModelUri(input.uri);
  preloadInsights();
  const sentences: string[] = [];
  let resolved: ResolvedFile;
  let uri: string;
  let fileName: string;
  let useToken = true;
  let chosenQuant: string | null = null;
  let offered: Array<{ quant: string | null; size: number }> = [];
  if (parsed.kind === 'url') {
    resolved = await resolvePlainUrl(parsed.url, hub.signal);
    uri = parsed.url;
    fileName = basename(decodeURIComponent(new URL(parsed.url).pathname));
    useToken = false;
  } else {
    const repoName = `${parsed.owner}/${parsed.repo}`;
    let file: string;
    let revision = 'main';
    if (parsed.kind === 'hf-file') {
      file = parsed.file;
      revision = parsed.revision;
    } else {
      const files = await listRepoFiles(hub, parsed.owner, parsed.repo);
      let chosen: QuantFile;
      if (parsed.kind === 'hf-quant') {
        chosen = fileOfQuant(files, repoName, parsed.quant);
      } else {
        const choice = bestFittingQuant(files, repoName, totalmem() * 0.6);
        chosen = choice.file;
        chosenQuant = chosen.quant;
        offered = choice.offered.map((f) => ({ quant: f.quant, size: f.size }));
        const others = choice.offered.filter((f) => f !== chosen).map((f) => `${f.quant ?? f.path} ${formatBytes(f.size)}`);
        sentences.push(
          choice.fits
            ? `${repoName} offers ${choice.offered.length} quantization${choice.offered.length === 1 ? '' : 's'}; ${chosen.quant ?? chosen.path} is the most precise that fits this machine${others.length ? ` (others: ${others.join(', ')})` : ''}. Name one with hf:${repoName}:QUANT to choose.`
            : `None of ${repoName}'s quantizations fits this machine comfortably; ${chosen.quant ?? chosen.path} is the smallest.`,
        );
      }
      file = chosen.path;
    }
    resolved = await resolveRepoFile(hub, parsed.owner, parsed.repo, file, revision);
    uri = hfFileUri(parsed.owner, parsed.repo, file, revision);
    fileName = basename(file);
  }
  const given = input.sha256?.trim().toLowerCase();
  if (given !== undefined && !/^[0-9a-f]{64}$/.test(given))
    throw new PullRefusedError(`--sha256 must be 64 hex digits; "${input.sha256 ?? ''}" is not.`, 'invalid_uri');
  if (given && resolved.sha256 && given !== resolved.sha256) {
    throw new PullRefusedError(`The hub says this file's sha256 is ${resolved.sha256}, not the ${given} you gave; check which file you meant.`, 'bad_answer');
  }
  const sha256 = resolved.sha256 ?? given ?? null;

  const modelId = input.id ?? defaultModelId(fileName);
  if (!MODEL_ID_PATTERN.test(modelId))
    throw new PullRefusedError(`"${modelId}" is not a valid model id: use letters, digits, '.', '_', ':' or '-' (up to 128).`, 'invalid_id');
  const same = sha256 ? findModelBySha256(input.db, sha256) : undefined;
  const existing = getModel(input.db, modelId);
  if (existing && existing.sha256 !== sha256)
    throw new PullRefusedError(`A model with id "${modelId}" is already registered; pick another with --id.`, 'model_exists');

  const already = input.alreadyDownloaded ? await input.alreadyDownloaded(resolved.url, fileName) : 0;
  const needed = Math.max(0, resolved.size - already) + roomForNextGeneration(input.dataDir);
  const free = freeSpace(input.modelsDir)?.free ?? null;
  const sizeText = `${fileName} is ${formatBytes(resolved.size)}`;
  if (!same) {
    if (free !== null && free < needed) {
      throw new PullRefusedError(
        `${sizeText}, but the disk holding ${input.modelsDir} has ${formatBytes(free)} free and this needs ${formatBytes(needed)} (the file and room for the next backup); free some space and pull again.`,
        'no_space',
      );
    }
    sentences.push(`${sizeText}; ${free === null ? 'the free disk space could not be read' : `${formatBytes(free)} is free on the disk it goes to`}.`);
  }
  const source = same ? null : await downloadSource(hub, resolved.url, useToken).catch(() => null);
  const memory = source ? await estimateMemoryFit(source.url, source.headers, hub.signal) : null;
  if (memory) sentences.push(memory.sentence);
  else if (!same) sentences.push('Its memory needs could not be estimated from its header.');
  if (!same) {
    sentences.push(
      sha256
        ? `It will be checked against the sha256 ${resolved.sha256 ? 'the hub publishes' : 'you gave'} (${sha256.slice(0, 12)}…) before it is registered.`
        : 'No sha256 is published for it, so Sanad can only check that it is a whole GGUF file (give --sha256 if its publisher lists one).',
    );
  } else {
    sentences.push(`It is already registered as "${same.id}" (same sha256); nothing to download.`);
  }
  const sha256From = resolved.sha256 ? 'hub' : given ? 'given' : null;
  return {
    uri,
    url: resolved.url,
    fileName,
    modelId: same?.id ?? modelId,
    size: resolved.size,
    sha256,
    revision: resolved.revision,
    useToken,
    memory,
    disk: { free, needed },
    sentences,
    alreadyHave: same?.id ?? null,
    sha256From,
    chosenQuant,
    offered,
  };
}
