// @ts-check
/**
 * The lint gate (`npm run lint`, with Prettier and astro check): JavaScript's and TypeScript's
 * recommended rules everywhere, React's hooks rules and jsx-a11y on the islands, Astro's on the pages.
 * Formatting is Prettier's alone (.prettierrc.json); eslint-config-prettier turns off what would clash.
 */
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import astro from 'eslint-plugin-astro';
// @ts-expect-error eslint-plugin-jsx-a11y ships no type declarations
import jsxA11y from 'eslint-plugin-jsx-a11y';
import reactHooks from 'eslint-plugin-react-hooks';
import { defineConfig } from 'eslint/config';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default defineConfig(
  {
    ignores: [
      'dist/',
      'release/',
      '.astro/',
      'src/paraglide/',
      'src/shared/api-paths.ts',
      '.tmp/',
      'test-results/',
      'playwright-report/',
      'uploads/',
      'db/*.sqlite*',
    ],
  },
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      // Unused arguments named with a leading underscore say "not needed here" (a handler's signature).
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
      ],
      eqeqeq: ['error', 'always'],
      'no-console': 'off',
      // One import statement per module: its values and types together (`import { x, type Y }`).
      'no-duplicate-imports': 'error',
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
    },
  },
  {
    // What runs in the browser, or in a page through Playwright.
    files: [
      'src/islands/**/*.{ts,tsx}',
      'src/stores/**/*.ts',
      'src/worker/**/*.ts',
      'src/shared/**/*.ts',
      'scripts/page-weights.mjs',
    ],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    // Tests read answers of any shape.
    files: ['tests/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    files: ['src/islands/**/*.tsx'],
    languageOptions: jsxA11y.flatConfigs.recommended.languageOptions,
    // The plugin object eslint-plugin-astro registers too: one instance under one name.
    // react-hooks' rule types are narrower than ESLint's Plugin type, which it satisfies at run time.
    plugins: {
      'jsx-a11y': jsxA11y,
      'react-hooks': /** @type {import('eslint').ESLint.Plugin} */ (reactHooks),
    },
    rules: { ...jsxA11y.flatConfigs.recommended.rules, ...reactHooks.configs.recommended.rules },
  },
  ...astro.configs.recommended,
  ...astro.configs['jsx-a11y-recommended'],
  {
    files: ['**/*.astro'],
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
  },
  prettier,
);
