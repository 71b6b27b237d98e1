// The GUI's build: the core serves dist/gui at `/` (src/service/routes/gui.ts), and Electron loads
// the same files. Component tests run in jsdom through vitest.
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

const root = fileURLToPath(new URL('.', import.meta.url));

export default defineConfig({
  root,
  base: '/',
  plugins: [react()],
  build: {
    outDir: fileURLToPath(new URL('../dist/gui', import.meta.url)),
    emptyOutDir: true,
    // The budget (checked by scripts/gui-budget.mjs) is on gzip size; a source map helps bug reports.
    sourcemap: true,
    chunkSizeWarningLimit: 600,
  },
  test: {
    environment: 'jsdom',
    include: ['src/**/*.test.tsx', 'src/**/*.test.ts'],
  },
});
