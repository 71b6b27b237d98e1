// Which GGUF file of a repository to pull: by a quantization the user named (`:Q4_K_M`), or the
// best one that fits this machine (`hf:OWNER/REPO`). "Best" is the highest-precision quant whose
// file leaves room in memory for the context and everything else running; F16/F32 only if nothing
// smaller exists (they are for conversion, not for chatting). Split models (-00001-of-00003) are
// refused with a sentence: Sanad registers one file per model.
import type { RepoFile } from './hub-client.js';

/** Most precise first. */
const QUALITY = [
  'Q8_0',
  'Q6_K',
  'Q5_K_M',
  'Q5_K_S',
  'Q5_1',
  'Q5_0',
  'Q4_K_M',
  'Q4_K_S',
  'IQ4_NL',
  'IQ4_XS',
  'Q4_1',
  'Q4_0',
  'Q3_K_L',
  'Q3_K_M',
  'IQ3_M',
  'IQ3_XS',
  'Q3_K_S',
  'IQ3_XXS',
  'Q2_K',
  'IQ2_M',
  'IQ2_XS',
  'IQ2_XXS',
  'IQ1_M',
  'IQ1_S',
];
const FULL = ['BF16', 'F16', 'F32'];
const SPLIT = /-\d{5}-of-\d{5}\.gguf$/i;

export interface QuantFile extends RepoFile {
  quant: string | null;
}

export class QuantChoiceError extends Error {
  override name = 'QuantChoiceError';
}

export function quantOf(path: string): string | null {
  const name = path.split('/').pop() ?? path;
  const upper = name.toUpperCase().replace(/\.GGUF$/, '');
  for (const q of [...QUALITY, ...FULL]) {
    if (new RegExp(`(^|[^A-Z0-9])${q}($|[^A-Z0-9])`).test(upper)) return q;
  }
  return null;
}

function ggufFiles(files: readonly RepoFile[], repo: string): QuantFile[] {
  const ggufs = files.filter((f) => /\.gguf$/i.test(f.path) && !/(^|\/)mmproj/i.test(f.path));
  if (ggufs.length === 0) throw new QuantChoiceError(`${repo} has no GGUF file; Sanad runs GGUF models (look for a "-GGUF" repository of the same model).`);
  const whole = ggufs.filter((f) => !SPLIT.test(f.path));
  if (whole.length === 0)
    throw new QuantChoiceError(
      `${repo} has only split GGUF files (-00001-of-…); Sanad registers one file per model, so pick a smaller quantization or another repository.`,
    );
  return whole.map((f) => ({ ...f, quant: quantOf(f.path) }));
}

/** The file of `quant` (several: the shortest name, the plain one rather than a variant). */
export function fileOfQuant(files: readonly RepoFile[], repo: string, quant: string): QuantFile {
  const candidates = ggufFiles(files, repo).filter((f) => f.quant === quant || f.path.toUpperCase().includes(quant));
  const best = candidates.sort((a, b) => a.path.length - b.path.length)[0];
  if (!best) {
    const have = [
      ...new Set(
        ggufFiles(files, repo)
          .map((f) => f.quant)
          .filter((q) => q !== null),
      ),
    ];
    throw new QuantChoiceError(`${repo} has no ${quant} file${have.length ? `; it has ${have.join(', ')}` : ''}.`);
  }
  return best;
}

export interface QuantChoice {
  file: QuantFile;
  /** Every quant found, most precise first, for the sentence said before starting. */
  offered: QuantFile[];
  fits: boolean;
}

/** The most precise file not larger than `budgetBytes`; the smallest one (said not to fit) if none is. */
export function bestFittingQuant(files: readonly RepoFile[], repo: string, budgetBytes: number): QuantChoice {
  const all = ggufFiles(files, repo);
  const rank = (q: string | null): number => {
    if (q === null) return QUALITY.length + FULL.length + 1;
    const i = QUALITY.indexOf(q);
    return i >= 0 ? i : QUALITY.length + FULL.indexOf(q);
  };
  const offered = [...all].sort((a, b) => rank(a.quant) - rank(b.quant) || a.size - b.size);
  const quantized = offered.filter((f) => !FULL.includes(f.quant ?? ''));
  const pool = quantized.length > 0 ? quantized : offered;
  const fitting = pool.find((f) => f.size <= budgetBytes);
  if (fitting) return { file: fitting, offered, fits: true };
  const smallest = [...offered].sort((a, b) => a.size - b.size)[0];
  if (!smallest) throw new QuantChoiceError(`${repo} has no GGUF file.`);
  return { file: smallest, offered, fits: false };
}
