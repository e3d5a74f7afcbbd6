import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const PURE_PROVIDERS = 'Provider adaptors are pure: they import only src/shared, other provider files and the pure codec and signing packages listed in eslint.config.js.';
/**
 * Packages a provider may use: wire codecs and signatures computed in memory, never I/O (AWS
 * SigV4 and event-stream framing from AWS's own SDK, JWT signing for Google service accounts
 * and Zhipu, Node's HMAC and SHA-256 for Tencent's TC3 signature).
 */
const PURE_PACKAGES = ['@smithy/signature-v4', '@smithy/core/serde', '@smithy/core/event-streams', 'jose', 'node:crypto'];
const NOT_RELATIVE_NOR_PURE = `^(?!\\.\\.?/|(${PURE_PACKAGES.map((name) => name.replace(/[/.]/g, '\\$&')).join('|')})$)`;

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'test-results/**', 'playwright-report/**', 'data/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'off',
    },
  },
  {
    // The console and the server share src/shared, resources/ and schemas/, never each other.
    files: ['src/web/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: ['**/server/**', 'node:*'] }] },
  },
  {
    files: ['src/server/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: ['**/web/**'] }] },
  },
  {
    // Provider adaptors are pure transforms: they import only src/shared, each other and the
    // pure packages above (never Node, other packages, the database, Fastify or the relay), and
    // plumbing/on-first-use, which loads those packages on first use rather than at start.
    files: ['src/server/relay/providers/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { regex: NOT_RELATIVE_NOR_PURE, message: PURE_PROVIDERS },
            { regex: '^\\.\\./(?!\\.\\./\\.\\./shared/|\\.\\./plumbing/on-first-use$)', message: PURE_PROVIDERS },
          ],
        },
      ],
    },
  },
  {
    files: ['src/server/relay/providers/*/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { regex: NOT_RELATIVE_NOR_PURE, message: PURE_PROVIDERS },
            { regex: '^\\.\\./\\.\\./(?!\\.\\./\\.\\./shared/|\\.\\./plumbing/on-first-use$)', message: PURE_PROVIDERS },
          ],
        },
      ],
    },
  },
  {
    // Declarations are data: resources/ and schemas/ hold no React and no Node imports.
    files: ['resources/**', 'src/shared/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: ['react', 'react/*', 'node:*', 'antd', '**/server/**', '**/web/**'] }] },
  },
);
