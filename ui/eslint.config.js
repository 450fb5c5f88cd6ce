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
    // Only the API module talks to Tauri. ui-error.ts and notice.ts read the generated words
    // tables (no commands) from the bindings too.
    files: ['src/**/*.{ts,svelte}'],
    ignores: ['src/lib/api.ts', 'src/lib/ui-error.ts', 'src/lib/notice.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: ['@tauri-apps/*', '**/bindings'] }],
    },
  },
  {
    // A code is compared through ui-error.ts's `Code` (the generated UiCode), never a string:
    // a typo then fails the type check instead of silently never matching.
    files: ['src/**/*.{ts,svelte}'],
    ignores: ['src/**/*.test.ts', 'src/tests/**'],
    rules: {
      'no-restricted-syntax': ['error', ...codeComparisons()],
    },
  },
  {
    files: ['src/**/*.test.ts', 'src/tests/**'],
    rules: { 'no-restricted-imports': 'off' },
  },
);

// `x.code === 'name'`, `'name' !== x.code`, `switch (x.code) { case 'name': ... }`.
function codeComparisons() {
  const message = 'Compare a code with Code.<name> from ui-error.ts, not a string literal.';
  return [
    "BinaryExpression[operator=/^[!=]==?$/][left.property.name='code'][right.type='Literal']",
    "BinaryExpression[operator=/^[!=]==?$/][right.property.name='code'][left.type='Literal']",
    "SwitchStatement[discriminant.property.name='code'] > SwitchCase[test.type='Literal']",
  ].map((selector) => ({ selector, message }));
}
