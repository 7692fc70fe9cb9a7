// Lint for correctness, not layout: tsc owns types, and no formatter rule fights
// anyone's in-flight code. Type-aware rules catch the async mistakes an agent
// runtime is prone to (a promise nobody awaits, a promise passed where a value goes).
import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import tseslint from 'typescript-eslint';

// Node's globals for the plain-JS files (bin/, scripts/, bench/); TypeScript files get them from @types/node.
const nodeGlobals = Object.fromEntries(
  [
    'process',
    'console',
    'Buffer',
    'URL',
    'AbortController',
    'fetch',
    'setTimeout',
    'clearTimeout',
    'setInterval',
    'clearInterval',
    'performance',
    'structuredClone',
  ].map((name) => [name, 'readonly']),
);

export default defineConfig(
  {
    ignores: ['dist/', 'coverage/', 'node_modules/', 'tmp/', '**/*.d.ts'],
  },
  {
    linterOptions: { reportUnusedDisableDirectives: 'error' },
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    languageOptions: {
      parserOptions: {
        projectService: { allowDefaultProject: ['*.config.ts'] },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': [
        'error',
        { checksVoidReturn: { arguments: false, attributes: false } },
      ],
      '@typescript-eslint/await-thenable': 'error',
      '@typescript-eslint/require-await': 'off',
      // Unused imports and variables are dead code; an unused callback parameter
      // is often kept to say what the caller passes, so parameters are not checked.
      '@typescript-eslint/no-unused-vars': [
        'error',
        { args: 'none', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true },
      ],
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/switch-exhaustiveness-check': ['error', { considerDefaultExhaustiveForUnions: true }],
      // Stripping ANSI colour codes is a legitimate use of \x1b in a pattern.
      'no-control-regex': 'off',
      'no-regex-spaces': 'off',
      eqeqeq: ['error', 'always', { null: 'ignore' }],
      'prefer-const': 'error',
      'no-var': 'error',
    },
  },
  {
    // Tests parse arbitrary HTTP and JSON bodies and assert on them; typing every
    // probe would cost more than it catches. Shipped code stays free of `any`.
    files: ['tests/**/*.ts', 'testkit/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    languageOptions: { globals: nodeGlobals },
    rules: {
      'no-unused-vars': ['error', { args: 'none', varsIgnorePattern: '^_', caughtErrors: 'none' }],
    },
  },
);
