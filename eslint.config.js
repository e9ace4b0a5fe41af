// Lint: typescript-eslint, React hooks, and the one-way import boundaries of DESIGN.md:
// contract -> machines -> client; machines know no React and no client; views never import the api.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import importX from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'node_modules/**',
      'visualizations/**',
      '.data/**',
      'coverage/**',
      'test-results/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    plugins: { 'import-x': importX, 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.property.name='only'][callee.object.name=/^(it|test|describe)$/]",
          message: 'No .only in tests.',
        },
        {
          selector: "CallExpression[callee.property.name='skip'][callee.object.name=/^(it|test|describe)$/]",
          message: 'A skipped test is not a passing one.',
        },
      ],
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            {
              target: './src/contract',
              from: ['./src/client', './src/server', './machines'],
              message: 'The contract depends on nothing of ours.',
            },
            {
              target: './machines',
              from: ['./src/client', './src/server'],
              message: 'Machines are pure: no client, no server.',
            },
            {
              target: './src/client',
              from: './src/server',
              message: 'The portal never imports server code.',
            },
            {
              target: './src/server',
              from: ['./src/client', './machines'],
              message: 'The server imports only the contract.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['machines/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['react', 'react-dom', 'react-*', '@mantine/*', '@xstate/react', 'ky'],
              message: 'Machines are pure TypeScript.',
            },
          ],
        },
      ],
      'no-restricted-globals': [
        'error',
        'window',
        'document',
        'fetch',
        'localStorage',
        'sessionStorage',
        'location',
      ],
    },
  },
  {
    files: ['src/client/**/*.tsx'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/api', '**/api/*', '**/client/api/**'],
              message: 'Views never import the api module: machines invoke it through provided actors.',
            },
          ],
        },
      ],
    },
  },
);
