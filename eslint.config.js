// Lint: typescript-eslint, one-way imports between layers and features (CONVENTIONS.md §6),
// and no user-visible literal in the console (§5).
import fs from 'node:fs';
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import i18next from 'eslint-plugin-i18next';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import boundaries from './scripts/eslint/boundaries.js';

const web = 'packages/web/src';
const features = fs.existsSync(`${web}/features`) ? fs.readdirSync(`${web}/features`) : [];

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', 'data/**', 'packages/server/drizzle/**', '**/test-results/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    plugins: { boundaries },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      'boundaries/one-way-imports': [
        'error',
        {
          zones: [
            {
              target: 'packages/contract',
              from: ['packages/server', 'packages/web'],
              message: 'The contract imports neither server nor web.',
            },
            { target: 'packages/server', from: ['packages/web'], message: 'The server never imports the console.' },
            {
              target: 'packages/simulator',
              from: ['packages/server', 'packages/web'],
              message: 'The simulator has its own OCPP client code: it never imports the server or the console.',
            },
            { target: 'packages/reader', from: ['packages/server', 'packages/web'], message: 'The card reader companion stands alone.' },
            { target: 'packages/web', from: ['packages/server'], message: 'The console never imports the server.' },
            { target: `${web}/shared`, from: [`${web}/features`, `${web}/app`], message: 'shared/ never imports features/ or app/.' },
            ...features.map((f) => ({
              target: `${web}/features/${f}`,
              from: [`${web}/features`],
              except: [`${web}/features/${f}`],
              message: 'A feature never imports another feature.',
            })),
          ],
        },
      ],
    },
  },
  {
    files: ['packages/web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
      // The contract's `api` holds every endpoint's schemas: a screen that imports it loads them all
      // (≈ 20 KB gzipped on every route, scripts/check-weight.mjs). Import the area's own `…Api`.
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: '@csms/contract',
              importNames: ['api', 'allEndpoints'],
              message: "Import the area's endpoints (e.g. stationApi), not the whole api: it would load every endpoint's schemas.",
            },
          ],
        },
      ],
    },
  },
  {
    // Every user-visible string comes from the zh-CN / en-US catalogues.
    files: [`${web}/**/*.tsx`],
    ignores: [`${web}/**/*.test.tsx`, `${web}/i18n/**`],
    plugins: { i18next },
    rules: {
      'i18next/no-literal-string': [
        'error',
        {
          mode: 'jsx-only',
          'jsx-attributes': {
            include: ['title', 'placeholder', 'alt', 'aria-label', 'label', 'okText', 'cancelText', 'content', 'tooltip'],
          },
        },
      ],
    },
  },
  {
    files: ['**/*.test.{ts,tsx}', '**/test/**', '**/e2e/**'],
    rules: { '@typescript-eslint/no-non-null-assertion': 'off', '@typescript-eslint/no-explicit-any': 'off' },
  },
  prettier,
);
