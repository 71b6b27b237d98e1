// Making generations: what one backup run puts in staging for restic to take (see make-generation.ts).
// Their format (manifest, vault key file) is the repository's: src/repository/generation/.
export { makeGeneration, type GenerationProgress, type GenerationResult, type GenerationStep, type MakeGenerationOptions } from './make-generation.js';
export { backupTargets, listGenerations, ManifestError, pruneStaging, readManifest, type Generation, type GenerationDir } from './staging.js';
