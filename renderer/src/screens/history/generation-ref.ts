// How a generation is named in the GUI's route: #/backups/<repo>:<generation>.

/** `local:1796148827` → { repo: 'local', generation: 1796148827 }; null for anything else. */
export function parseGenerationRef(id: string): { repo: string; generation: number } | null {
  const m = /^(.{1,64}):([1-9][0-9]{0,11})$/.exec(id);
  return m?.[1] && m[2] ? { repo: m[1], generation: Number(m[2]) } : null;
}

export function generationRef(repo: string, generation: number): string {
  return `${repo}:${generation}`;
}
