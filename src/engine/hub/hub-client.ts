// What Sanad asks a Hugging Face hub (HF_ENDPOINT, else the public one) before it downloads: the
// files of a repository with their LFS sha256, and for one file its size, sha256 and the commit it
// resolves to (the `resolve` answer's X-Linked-Size, X-Linked-Etag and X-Repo-Commit). The bytes
// themselves are ipull's to fetch (download.ts). A token, when the user gave one, goes only to the
// hub's own origin: fetch drops Authorization on a redirect to another origin (the CDN).

import { z } from 'zod/v3';
import { isSafeRemoteUrl } from '../../contract/remote-url.js';

export const PUBLIC_HUB = 'https://huggingface.co/';

export type HubErrorCode = 'not_found' | 'needs_token' | 'unreachable' | 'bad_answer';

export class HubError extends Error {
  constructor(
    message: string,
    readonly code: HubErrorCode,
  ) {
    super(message);
    this.name = 'HubError';
  }
}

export interface Hub {
  /** With a trailing slash. */
  endpoint: string;
  token: string | null;
  /** Where the saved token is read from, only once the hub asks for one (a gated model): most
   *  pulls never touch the keychain. Sets `token` for the calls after it. */
  loadToken?: () => Promise<string | null>;
  signal?: AbortSignal;
}

export function hubEndpoint(env: NodeJS.ProcessEnv = process.env): string {
  const given = env.HF_ENDPOINT?.trim();
  if (!given) return PUBLIC_HUB;
  // The hub token travels to it: never in clear text over a network.
  if (!isSafeRemoteUrl(given))
    throw new HubError(
      `HF_ENDPOINT is "${given}", which is not an https:// URL (http:// only for localhost or 127.0.0.1); set it to a hub's https address or unset it for ${PUBLIC_HUB}.`,
      'bad_answer',
    );
  const url = new URL(given);
  return url.href.endsWith('/') ? url.href : `${url.href}/`;
}

export interface RepoFile {
  path: string;
  size: number;
  /** The LFS object's sha256; null for a file kept in git itself (no LFS). */
  sha256: string | null;
}

export interface ResolvedFile {
  /** The file pinned to its commit, so a resumed download gets the same bytes. */
  url: string;
  size: number;
  sha256: string | null;
  revision: string | null;
}

/** One entry of the model API's tree listing (files and folders; other fields are ignored). */
const TreeEntry = z.object({ type: z.string(), path: z.string(), size: z.number(), lfs: z.object({ oid: z.string() }).optional() });

const enc = (path: string): string => path.split('/').map(encodeURIComponent).join('/');
const SHA256 = /^[0-9a-f]{64}$/;

function headersFor(hub: Hub): Record<string, string> {
  return hub.token ? { authorization: `Bearer ${hub.token}` } : {};
}

async function ask(hub: Hub, url: string, init: RequestInit, what: string): Promise<Response> {
  const res = await askOnce(hub, url, init, what);
  if ((res.status !== 401 && res.status !== 403) || hub.token !== null || !hub.loadToken) return refusalOf(hub, res, what);
  // Refused without a token: read the saved one (once) and ask again with it.
  const load = hub.loadToken;
  delete hub.loadToken;
  hub.token = await load().catch(() => null);
  if (hub.token === null) return refusalOf(hub, res, what);
  await res.body?.cancel();
  return refusalOf(hub, await askOnce(hub, url, init, what), what);
}

async function askOnce(hub: Hub, url: string, init: RequestInit, what: string): Promise<Response> {
  let res: Response;
  try {
    res = await fetch(url, { ...init, headers: { ...headersFor(hub), ...(init.headers ?? {}) }, signal: hub.signal ?? null });
  } catch (err) {
    if (hub.signal?.aborted) throw err;
    throw new HubError(
      `The hub at ${hub.endpoint} could not be reached for ${what} (${err instanceof Error ? (err.cause instanceof Error ? err.cause.message : err.message) : String(err)}); check the network and try again.`,
      'unreachable',
    );
  }
  return res;
}

async function refusalOf(hub: Hub, res: Response, what: string): Promise<Response> {
  if (res.status === 401 || res.status === 403) {
    await res.body?.cancel();
    throw new HubError(
      hub.token
        ? `The hub refused the saved token for ${what} (HTTP ${res.status}); the model may be gated: accept its terms on the hub, or save a new token with \`sanad models login\`.`
        : `${what} needs a Hugging Face token (HTTP ${res.status}), or does not exist; if it is gated, accept its terms on the hub and save a token with \`sanad models login\`.`,
      'needs_token',
    );
  }
  if (res.status === 404) {
    await res.body?.cancel();
    throw new HubError(`The hub has no ${what}; check the name.`, 'not_found');
  }
  return res;
}

/** Every file of a repository at a revision (recursive), with sizes and LFS sha256. */
export async function listRepoFiles(hub: Hub, owner: string, repo: string, revision = 'main'): Promise<RepoFile[]> {
  const what = `repository ${owner}/${repo}`;
  const res = await ask(hub, `${hub.endpoint}api/models/${enc(owner)}/${enc(repo)}/tree/${enc(revision)}?recursive=true`, {}, what);
  if (!res.ok) throw new HubError(`The hub answered HTTP ${res.status} for ${what}; try again later.`, 'bad_answer');
  const body: unknown = await res.json().catch(() => null);
  if (!Array.isArray(body)) throw new HubError(`The hub's file list of ${what} is not a list; is HF_ENDPOINT a Hugging Face hub?`, 'bad_answer');
  const files: RepoFile[] = [];
  for (const entry of body) {
    const e = TreeEntry.safeParse(entry);
    if (!e.success || e.data.type !== 'file') continue;
    const oid = e.data.lfs?.oid ?? null;
    files.push({ path: e.data.path, size: e.data.size, sha256: oid !== null && SHA256.test(oid) ? oid : null });
  }
  return files;
}

function etagSha(value: string | null): string | null {
  const v = value?.replace(/^W\//, '').replace(/"/g, '').trim().toLowerCase() ?? '';
  return SHA256.test(v) ? v : null;
}

/** One file of a repository: its size, sha256 and commit, from the hub's `resolve` answer. */
export async function resolveRepoFile(hub: Hub, owner: string, repo: string, file: string, revision: string): Promise<ResolvedFile> {
  const what = `file ${file} in ${owner}/${repo}${revision === 'main' ? '' : ` at ${revision}`}`;
  const res = await ask(hub, `${hub.endpoint}${enc(owner)}/${enc(repo)}/resolve/${enc(revision)}/${enc(file)}`, { method: 'HEAD', redirect: 'manual' }, what);
  await res.body?.cancel();
  if (res.status >= 400) throw new HubError(`The hub answered HTTP ${res.status} for ${what}; try again later.`, 'bad_answer');
  const size = Number(res.headers.get('x-linked-size') ?? res.headers.get('content-length') ?? NaN);
  if (!Number.isSafeInteger(size) || size <= 0)
    throw new HubError(`The hub did not say how large ${what} is; is HF_ENDPOINT a Hugging Face hub?`, 'bad_answer');
  const commit = res.headers.get('x-repo-commit');
  const revisionOut = commit && /^[0-9a-f]{7,64}$/.test(commit) ? commit : null;
  return {
    url: `${hub.endpoint}${enc(owner)}/${enc(repo)}/resolve/${enc(revisionOut ?? revision)}/${enc(file)}`,
    size,
    sha256: etagSha(res.headers.get('x-linked-etag')),
    revision: revisionOut,
  };
}

/** A plain URL: its size (and a sha256 only if the server publishes one the hub's way). */
export async function resolvePlainUrl(url: string, signal?: AbortSignal): Promise<ResolvedFile> {
  let res: Response;
  try {
    res = await fetch(url, { method: 'HEAD', redirect: 'follow', signal: signal ?? null });
  } catch (err) {
    if (signal?.aborted) throw err;
    throw new HubError(
      `${new URL(url).host} could not be reached (${err instanceof Error ? (err.cause instanceof Error ? err.cause.message : err.message) : String(err)}); check the address and the network.`,
      'unreachable',
    );
  }
  await res.body?.cancel();
  if (res.status === 404) throw new HubError(`There is no file at ${url}; check the address.`, 'not_found');
  if (res.status === 401 || res.status === 403)
    throw new HubError(`${url} refused the download (HTTP ${res.status}); Sanad sends no credentials to other sites.`, 'needs_token');
  if (!res.ok) throw new HubError(`${url} answered HTTP ${res.status}; try again later.`, 'bad_answer');
  const size = Number(res.headers.get('x-linked-size') ?? res.headers.get('content-length') ?? NaN);
  if (!Number.isSafeInteger(size) || size <= 0)
    throw new HubError(`${url} did not say how large the file is, so it cannot be checked for room or resumed.`, 'bad_answer');
  return { url, size, sha256: etagSha(res.headers.get('x-linked-etag')), revision: null };
}

/**
 * Where the bytes of a hub file are fetched from, and with which headers: the hub answers its
 * `resolve` URL with a redirect to a signed CDN URL (valid for a while, so asked again at every
 * attempt). The token goes only to the hub itself: ipull and node-llama-cpp reuse the headers for
 * the URL a redirect gives, so the redirect is taken here and the CDN gets no Authorization.
 */
export async function downloadSource(hub: Hub, url: string, useToken: boolean): Promise<{ url: string; headers: Record<string, string> }> {
  const origin = new URL(hub.endpoint).origin;
  let at = url;
  for (let hop = 0; hop < 5; hop++) {
    if (!useToken || new URL(at).origin !== origin) return { url: at, headers: {} };
    // Asked here (a gated file loads the saved token on the way), so ipull is given the CDN's URL.
    const res = await ask(hub, at, { method: 'HEAD', redirect: 'manual' }, 'the file');
    await res.body?.cancel();
    const location = res.status >= 300 && res.status < 400 ? res.headers.get('location') : null;
    if (!location) return { url: at, headers: headersFor(hub) };
    at = new URL(location, at).href;
  }
  throw new HubError('The hub redirected the download too many times; try again later.', 'bad_answer');
}
