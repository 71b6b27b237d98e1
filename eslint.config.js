// Lint: typescript-eslint's type-aware recommended rules, plus three house rules: no `any`, no
// type assertions (`as`) without an eslint-disable comment that gives the reason after `--`, and
// the wall clock read only in clock.ts.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**', '.test-artifacts/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked.map((c) => ({ ...c, files: ['**/*.ts', '**/*.tsx', '**/*.cts'] })),
  {
    files: ['**/*.ts', '**/*.tsx', '**/*.cts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/consistent-type-assertions': ['error', { assertionStyle: 'never' }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      // Fastify handlers are async by convention even when they do not await.
      '@typescript-eslint/require-await': 'off',
      // node:test's test()/describe() return promises the runner itself awaits.
      '@typescript-eslint/no-floating-promises': [
        'error',
        { allowForKnownSafeCalls: [{ from: 'package', package: 'node:test', name: ['test', 'describe', 'it', 'suite'] }] },
      ],
    },
  },
  {
    // Only clock.ts reads the wall clock (src/clock.ts for the core and the shell, renderer/src/clock.ts
    // for the GUI): everything else takes a Clock, so tests move time instead of sleeping.
    files: ['src/**/*.ts', 'electron/**/*.ts', 'renderer/src/**/*.ts', 'renderer/src/**/*.tsx'],
    ignores: ['src/clock.ts', 'renderer/src/clock.ts', '**/*.test.ts', '**/*.test.tsx'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.object.name='Date'][callee.property.name='now']",
          message: 'Read the time from a Clock (src/clock.ts), not Date.now().',
        },
        { selector: "NewExpression[callee.name='Date'][arguments.length=0]", message: 'Read the time from a Clock (src/clock.ts), not new Date().' },
      ],
    },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly' } },
  },
);
