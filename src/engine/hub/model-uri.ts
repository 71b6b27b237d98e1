// The model URIs `sanad models pull` takes, read once into what they name. Hugging Face's forms are
// node-llama-cpp's (`hf:OWNER/REPO/FILE.gguf[#REVISION]`, `hf:OWNER/REPO:QUANT`, `hf:OWNER/REPO`);
// anything else must be an https URL of a .gguf file (http only on the loopback).
import { isSafeRemoteUrl } from '../../contract/remote-url.js';

export type ModelUri =
  | { kind: 'hf-file'; owner: string; repo: string; file: string; revision: string }
  | { kind: 'hf-quant'; owner: string; repo: string; quant: string }
  | { kind: 'hf-repo'; owner: string; repo: string }
  | { kind: 'url'; url: string };

export class ModelUriError extends Error {
  override name = 'ModelUriError';
}

const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,95}$/;
const QUANT = /^[A-Za-z0-9_]{1,24}$/;
const EXAMPLES = 'hf:OWNER/REPO/FILE.gguf, hf:OWNER/REPO:Q4_K_M, hf:OWNER/REPO or https://…/FILE.gguf';

export function parseModelUri(text: string): ModelUri {
  const uri = text.trim();
  const bad = (why: string): ModelUriError => new ModelUriError(`"${uri}" is not a model address Sanad can pull (${why}); use ${EXAMPLES}.`);
  if (/^https?:\/\//i.test(uri)) {
    let url: URL;
    try {
      url = new URL(uri);
    } catch {
      throw bad('not a valid URL');
    }
    if (!/\.gguf$/i.test(decodeURIComponent(url.pathname))) throw bad('the URL does not name a .gguf file');
    if (url.username || url.password) throw bad('a URL must not carry a user name or password; use `sanad models login` for a token');
    if (!isSafeRemoteUrl(url.href)) throw bad('plain http:// is allowed only for localhost; use https:// so the file cannot be swapped on the way');
    return { kind: 'url', url: url.href };
  }
  const rest = /^(?:hf|huggingface):(?:\/\/)?(.*)$/i.exec(uri)?.[1];
  if (rest === undefined) throw bad('it starts with neither hf: nor https://');
  const hash = rest.indexOf('#');
  const path = hash >= 0 ? rest.slice(0, hash) : rest;
  const revision = hash >= 0 ? rest.slice(hash + 1) : 'main';
  const [owner = '', repoPart = '', ...fileParts] = path.split('/');
  const [repo = '', quant, ...extra] = repoPart.split(':');
  if (!NAME.test(owner) || !NAME.test(repo) || extra.length > 0) throw bad('OWNER/REPO is not a Hugging Face repository name');
  if (fileParts.length > 0) {
    if (quant !== undefined) throw bad('give either a file or a :QUANT, not both');
    const file = fileParts.join('/');
    if (!/\.gguf$/i.test(file) || fileParts.some((p) => p === '' || p === '.' || p === '..')) throw bad('the file must be a .gguf path inside the repository');
    if (!/^[A-Za-z0-9._/-]{1,200}$/.test(revision)) throw bad('the revision after # is not a branch, tag or commit');
    return { kind: 'hf-file', owner, repo, file, revision };
  }
  if (hash >= 0) throw bad('a #revision goes with a file: hf:OWNER/REPO/FILE.gguf#REVISION');
  if (quant !== undefined) {
    if (!QUANT.test(quant)) throw bad(`"${quant}" is not a quantization name such as Q4_K_M`);
    return { kind: 'hf-quant', owner, repo, quant: quant.toUpperCase() };
  }
  return { kind: 'hf-repo', owner, repo };
}

/** The URI as Sanad records it (a chosen file spelled out). */
export function hfFileUri(owner: string, repo: string, file: string, revision: string): string {
  return `hf:${owner}/${repo}/${file}${revision === 'main' ? '' : `#${revision}`}`;
}
