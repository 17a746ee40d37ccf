// ESLint for the SPA and the e2e suite. Beyond the recommended JavaScript, TypeScript and
// React hooks rules it enforces the layout the README describes: features never import each
// other; app/ may import features; features, components/ and lib/ build on components/ and
// lib/ only.
import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import i18next from 'eslint-plugin-i18next';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const features = readdirSync(new URL('./src/features', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

// Relative imports stay inside their own folder's neighbourhood; anything further away goes
// through the `@/` alias, so the patterns below see every import between layers.
const climbsOut = {
  regex: '^\\.\\./\\.\\./',
  message: "Import from outside this feature through '@/…'.",
};

/** Imports a file under `src/<layer>` may not make, as no-restricted-imports options. */
function restrict(...patterns) {
  return { 'no-restricted-imports': ['error', { patterns }] };
}

const noApp = { regex: '^@/app(/|$)', message: 'Only main.tsx imports the app.' };
const noFeatures = {
  regex: '^@/features(/|$)',
  message: 'Shared code does not depend on a feature; move what several features need into lib/ or components/.',
};

/** Options of i18next/no-literal-string: JSX text and the props that carry text. */
export const literalStrings = {
  mode: 'jsx-only',
  'jsx-attributes': {
    include: [
      'title', 'placeholder', 'alt', 'label', 'aria-label', 'aria-description', 'aria-placeholder',
      'aria-roledescription', 'aria-valuetext', 'description', 'hint', 'help', 'emptyText', 'empty',
      'message', 'heading', 'subtitle', 'confirmLabel', 'cancelLabel', 'submitLabel', 'actionLabel',
      'text', 'caption', 'summary', 'legend',
    ],
  },
  words: { exclude: ['[0-9!-/:-@[-`{-~\\s]+', '[A-Z_-]+', '—', '…', '·', '×', '→', '←', '•', '✓'] },
  // Calls whose string arguments name things rather than say them: the plugin's defaults, plus
  // react-hook-form's field paths (register('name'), watch, setValue…) and URL parameters.
  callees: {
    exclude: [
      'i18n(ext)?', 't', 'require', 'addEventListener', 'removeEventListener', 'postMessage', 'getElementById',
      'dispatch', 'commit', 'includes', 'indexOf', 'endsWith', 'startsWith',
      'register', 'watch', 'setValue', 'getValues', 'trigger', 'resetField', 'clearErrors', 'setFocus', 'has', 'get',
    ],
  },
};

export default defineConfig(
  { ignores: ['dist/', 'e2e/artifacts/', 'node_modules/', 'playwright-report/', 'test-results/'] },
  {
    files: ['**/*.{js,mjs,ts,tsx}'],
    extends: [js.configs.recommended, tseslint.configs.recommended],
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // tsc's noUnusedLocals/noUnusedParameters already report these.
      '@typescript-eslint/no-unused-vars': 'off',
    },
  },
  {
    // The classic hooks rules. The plugin's React Compiler rules (set-state-in-effect, refs,
    // ...) are left out: the app is not compiled by the React Compiler, and the patterns they
    // flag (local form state reset from props in an effect, a latest-callback ref) are
    // deliberate here.
    files: ['src/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
    },
    languageOptions: { globals: globals.browser },
  },
  {
    // Every text a person reads goes through i18next (lib/i18n.ts): text in JSX, and the
    // attributes and props that show text. i18n.test.ts runs this rule too, so an untranslated
    // string fails `make test` as well as the lint.
    files: ['src/**/*.tsx'],
    ignores: ['src/**/*.test.tsx', 'src/test/**'],
    plugins: { i18next },
    rules: { 'i18next/no-literal-string': ['error', literalStrings] },
  },
  { files: ['public/**/*.js'], languageOptions: { globals: globals.browser, sourceType: 'script' } },
  {
    files: ['e2e/**/*.ts', 'scripts/**/*.mjs', '*.{js,ts}'],
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
  },
  { files: ['src/lib/**', 'src/components/**'], rules: restrict(noApp, noFeatures) },
  ...features.map((name) => ({
    files: [`src/features/${name}/**`],
    rules: restrict(noApp, climbsOut, {
      regex: `^@/features/(?!${name}/)`,
      message: 'Features never import each other; move what both need into lib/ or components/.',
    }),
  })),
);
