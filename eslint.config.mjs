import js from '@eslint/js';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import reactHooks from 'eslint-plugin-react-hooks';
import importPlugin from 'eslint-plugin-import';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import routerClientExports from './frontends/shell/build/router-client-exports.json' with { type: 'json' };

/**
 * Import boundaries: services never import each other (they talk over HTTP and events), and domain
 * code stays free of the web framework and the database driver so it can be tested on its own.
 */
const otherServices = {
  group: [
    '**/services/*/**',
    '@crm/*-service',
    '@crm/auth',
    '@crm/appointments',
    '@crm/records',
    '@crm/rooms',
    '@crm/config',
    '@crm/notifications',
  ],
  message: 'Services never import each other: use events or HTTP, and shared code in packages/.',
};

/**
 * Browser code takes only types from the contracts' index: its values come from the zod-free entry
 * points the package declares (`@crm/contracts/<module>`, its package.json `exports`), because
 * importing the index bundles every zod schema (~30 KB gzip).
 */
const contractsIndexInBrowser = {
  name: '@crm/contracts',
  allowTypeImports: true,
  message:
    "Import values from a zod-free entry point, '@crm/contracts/<module>' (packages/contracts/package.json); the index bundles every schema.",
};

/**
 * Browser code uses only the part of react-router the shell shares (its build cuts the shared module
 * to these exports, see frontends/shell/build/react-router-client-only.ts): anything else would be
 * undefined in a remote running on the shell's copy.
 */
const sharedRouterOnly = ['react-router', 'react-router-dom'].map((name) => ({
  name,
  allowImportNames: routerClientExports,
  allowTypeImports: true,
  message: 'The shared router offers only the exports of frontends/shell/build/router-client-exports.json.',
}));
const browserImportPaths = [contractsIndexInBrowser, ...sharedRouterOnly];

/**
 * The public API, the events and the stored documents keep the names the first version gave them
 * (`pacientId`, `/users/pacients`); domain code says `patient`. The edge maps one to the other: route
 * handlers (api/), the payloads of published events (events/), the documents' fields (data/). String
 * values are not names: the role 'PACIENT' and the Spanish "paciente" stay allowed.
 */
const wireNamesAtTheEdge = {
  selector: 'Identifier[name=/[Pp][Aa][Cc][Ii][Ee][Nn][Tt]/]',
  message:
    "Domain code says 'patient': the wire name 'pacient' stays at the edge (api/, events/, data/, contracts), which maps it.",
};

const featuresApart = {
  group: ['@/features/*', '../../*', '../../../features/*'],
  message: 'Features do not import each other: share code through src/lib, src/components or @crm/web-kit.',
};

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', '.infra/**', 'artifacts/**', 'coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.jest } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'error',
    },
  },
  // No import cycles anywhere in source code (tests may import freely).
  {
    files: ['{packages,services,frontends}/*/src/**/*.{ts,tsx}', 'gateway/src/**/*.ts'],
    plugins: { import: importPlugin },
    settings: {
      'import/extensions': ['.ts', '.tsx', '.js'],
      'import/resolver': { node: { extensions: ['.ts', '.tsx', '.js'] } },
    },
    rules: { 'import/no-cycle': ['error', { ignoreExternal: true }] },
  },
  {
    files: ['services/*/src/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [otherServices] }] },
  },
  {
    files: ['services/*/src/domain/**/*.ts'],
    rules: {
      'no-restricted-syntax': ['error', wireNamesAtTheEdge],
      'no-restricted-imports': [
        'error',
        {
          paths: [
            { name: 'express', message: 'Domain code does not know about HTTP.' },
            { name: 'mongoose', message: 'Domain code does not know about the database.' },
            { name: 'mongodb', message: 'Domain code does not know about the database.' },
          ],
          patterns: [otherServices],
        },
      ],
    },
  },
  {
    files: ['packages/*/src/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['**/services/**', '**/gateway/**'], message: 'Packages never depend on deployables.' },
          ],
        },
      ],
    },
  },
  // Front ends (browser code, React): hooks rules, accessibility rules, and feature boundaries.
  {
    files: ['frontends/*/{src,inline}/**/*.{ts,tsx}', 'packages/web-kit/src/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks, 'jsx-a11y': jsxA11y },
    rules: {
      ...reactHooks.configs.flat.recommended.rules,
      ...jsxA11y.flatConfigs.recommended.rules,
      'no-restricted-imports': ['error', { paths: browserImportPaths }],
    },
  },
  { files: ['frontends/*/public/**/*.js'], languageOptions: { globals: { ...globals.browser } } },
  {
    files: ['frontends/*/src/features/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: browserImportPaths,
          patterns: [featuresApart],
        },
      ],
    },
  },
  // Front-end tests run in Node, not in a bundle: they may take values (the seed) from the contracts' index.
  {
    files: ['frontends/*/src/**/*.test.{ts,tsx}'],
    rules: { 'no-restricted-imports': ['error', { paths: sharedRouterOnly, patterns: [featuresApart] }] },
  },
);
