import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/', 'plugin-sdk/dist/', 'coverage/', 'node_modules/', 'test/fixtures/bad-plugins/syntax-error/', 'examples/*/dist/', 'examples/*/node_modules/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly', Buffer: 'readonly', setTimeout: 'readonly', clearTimeout: 'readonly', setInterval: 'readonly', clearInterval: 'readonly', performance: 'readonly', TextDecoder: 'readonly', TextEncoder: 'readonly', AbortController: 'readonly', AbortSignal: 'readonly', structuredClone: 'readonly', fetch: 'readonly' } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
    },
  },
  {
    // Service code logs through pino only: console output could carry request data.
    files: ['kernel/**/*.ts', 'cli/**/*.ts', 'mcp/**/*.ts', 'recipes/**/*.ts', 'tool-pages/**/*.ts', 'plugins/**/*.ts', 'plugin-sdk/src/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: { 'no-console': 'error' },
  },
);
