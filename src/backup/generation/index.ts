// Generations: what one backup run puts in staging for restic to take (see make-generation.ts).
export { makeGeneration, type GenerationProgress, type GenerationResult, type GenerationStep, type MakeGenerationOptions } from './make-generation.js';
export { ManifestSchema, MANIFEST_FILE, MANIFEST_FORMAT_VERSION, type Manifest, type ManifestItem } from './manifest.js';
export { backupTargets, listGenerations, ManifestError, pruneStaging, readManifest, type Generation, type GenerationDir } from './staging.js';
export { removeVaultKey, VAULT_KEY_FILE } from './vault-key-file.js';
