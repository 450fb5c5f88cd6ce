import js from '@eslint/js';
import ts from 'typescript-eslint';
import svelte from 'eslint-plugin-svelte';
import globals from 'globals';

export default ts.config(
  { ignores: ['dist/', 'node_modules/', 'src/lib/bindings.ts'] },
  js.configs.recommended,
  ...ts.configs.recommended,
  ...svelte.configs['flat/recommended'],
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
  },
  {
    files: ['**/*.svelte', '**/*.svelte.ts'],
    languageOptions: { parserOptions: { parser: ts.parser } },
  },
  {
    // Only the API module talks to Tauri.
    files: ['src/**/*.{ts,svelte}'],
    ignores: ['src/lib/api.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: ['@tauri-apps/*', '**/bindings'] }],
    },
  },
  {
    files: ['src/**/*.test.ts', 'src/tests/**'],
    rules: { 'no-restricted-imports': 'off' },
  },
);
