import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import globals from 'globals';

// Feature and module boundaries (docs/decisions/import-boundaries.md).
const folders = (path) =>
  readdirSync(new URL(path, import.meta.url), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);

const webFeatures = './apps/web/src/features';
const apiModules = './apps/api/src/modules';

/** The imports of another API module's files that exist today, each with why. A new edge fails
 *  lint: wire it through the composition root (apps/api/src/services.ts) or move the shared part
 *  to lib/ instead of adding it here. */
const apiModuleEdges = {
  // Uploads: check the file (uploads), store it (files) and count it against the plan (membership).
  'dental-ai': [
    './uploads/upload-acceptance.ts',
    './files/file-storage.ts',
    './membership/plan-limits.service.ts',
    // The test reads the stored file rows back.
    './files/files.repository.ts',
  ],
  'medical-records': [
    './uploads/upload-acceptance.ts',
    './files/file-storage.ts',
    './membership/plan-limits.service.ts',
  ],
  'oral-photo': [
    './uploads/upload-acceptance.ts',
    './files/file-storage.ts',
    './membership/plan-limits.service.ts',
  ],
  'virtual-consultation': ['./uploads/upload-acceptance.ts', './files/file-storage.ts'],
  // The archive follows the stored files' key layout and leaves out a file that fails the
  // integrity check; its test runs the orphan sweep over it.
  'data-export': [
    './files/file-storage.ts',
    './files/integrity-checked-blob-store.ts',
    './files/orphan-sweep.ts',
  ],
  // An import checks and stores its files as an upload does (the services are injected); the
  // refusals are the uploads' own.
  'data-import': [
    './uploads/upload-acceptance.ts',
    './uploads/upload-errors.ts',
    './files/file-storage.ts',
  ],
  // The plan limits count the stored bytes of a member; purchases join the audit trail through
  // the AuditRecorder type, wired in services.ts.
  membership: ['./files/files.repository.ts', './audit/audit.service.ts'],
  // The audit names the member of a request without a bearer token (by e-mail, refresh token or
  // reset key), with the auth module's repository and token hash.
  audit: ['./auth/auth.repository.ts', './auth/token.service.ts'],
  // A route declares its audit row beside it; routes without a bearer token name their member
  // with the audit's subject helpers (sign-in, refresh, reset) and actor forms (a share link).
  auth: ['./audit/audit-declarations.ts'],
  'share-links': ['./audit/audit-declarations.ts'],
  // Accepting a staff invitation is the new account's sign-up, a row of its own chain.
  clinic: ['./audit/audit-declarations.ts'],
  // A staff read joins the patient's chain with the staff member as actor.
  'care-team': ['./audit/audit-declarations.ts'],
  // Markdown topics are loaded and answered by the content module; the tests load test content.
  'dental-knowledge': [
    './content/content-paths.ts',
    './content/markdown-reply.ts',
    './content/content-loader.service.ts',
  ],
  'oral-supplier': [
    './content/content-paths.ts',
    './content/markdown-reply.ts',
    './content/content-loader.service.ts',
  ],
  // A review counts against the plan, joins the patient's chain for staff reads (AuditRecorder,
  // wired in services.ts) and names its data set's images by their stored keys; its test stores
  // a Dental AI result as a detection would. Its answer writes the member's notices into the
  // message notices' outbox in its transaction, sent as a reply's are (photo-reviews.md).
  // A report counts against the plan, is written from the record the data export reads, and is
  // stored under the member's files.
  reports: [
    './membership/plan-limits.service.ts',
    './data-export/data-export.repository.ts',
    './files/file-storage.ts',
  ],
  reviews: [
    './membership/plan-limits.service.ts',
    './audit/audit.service.ts',
    './files/file-storage.ts',
    './dental-ai/dental-ai.repository.ts',
    './messages/message-notices.repository.ts',
    './messages/message-notices.service.ts',
  ],
};

const boundaryZones = [
  // A web feature uses components/, lib/, config/ and @dental/contracts, never another feature.
  ...folders(webFeatures).map((feature) => ({
    target: `${webFeatures}/${feature}`,
    from: webFeatures,
    except: [`./${feature}`],
    message:
      'A feature never imports another feature; move the shared part to components/ or lib/.',
  })),
  {
    target: ['./apps/web/src/components', './apps/web/src/lib', './apps/web/src/config'],
    from: webFeatures,
    message: 'Shared web code never imports a feature.',
  },
  // The clinic console is an entry of its own (docs/decisions/clinic-console.md): the patient's
  // app never imports it, so its code cannot reach a patient's browser; it imports theirs.
  {
    target: [
      ...folders('./apps/web/src')
        .filter((folder) => folder !== 'clinic')
        .map((folder) => `./apps/web/src/${folder}`),
      './apps/web/src/main.tsx',
    ],
    from: './apps/web/src/clinic',
    message:
      'The patient app never imports the clinic console; move the shared part to components/ or lib/.',
  },
  ...folders(apiModules).map((module) => ({
    target: `${apiModules}/${module}`,
    from: apiModules,
    except: [`./${module}`, ...(apiModuleEdges[module] ?? [])],
    message:
      'A module never imports another module; wire it in services.ts or move the shared part to lib/.',
  })),
];

// Layers: the infrastructure under the features never reaches up into them or into the wiring.
// Tests are exempt: an integration test builds the whole app.
const layerZones = [
  // The web app's code flows shared → features → app (docs/decisions/web-structure.md): app/
  // composes the routes and pages, and only main.tsx (and the tests) import it.
  {
    target: ['components', 'config', 'features', 'lib'].map((folder) => `./apps/web/src/${folder}`),
    from: './apps/web/src/app',
    message:
      'Only main.tsx imports app/; move what is needed to components/, lib/ or config/, or compose it in app/.',
  },
  {
    target: ['adapters', 'db', 'jobs', 'lib', 'plugins'].map((layer) => `./apps/api/src/${layer}`),
    from: [
      apiModules,
      './apps/api/src/services.ts',
      './apps/api/src/repositories.ts',
      './apps/api/src/app.ts',
    ],
    message:
      'Infrastructure never imports a feature module or the composition root; declare a port here and implement it in the module.',
  },
  {
    target: ['./apps/api/src/config.ts', './apps/api/src/config'],
    from: [
      './apps/api/src/adapters',
      './apps/api/src/jobs',
      './apps/api/src/plugins',
      apiModules,
      './apps/api/src/services.ts',
      './apps/api/src/repositories.ts',
      './apps/api/src/app.ts',
    ],
    message:
      'Configuration is read by every layer and imports none of them back; a type it shares with an adapter is declared in config/ and imported from there.',
  },
  {
    target: apiModules,
    from: ['./apps/api/src/services.ts', './apps/api/src/repositories.ts', './apps/api/src/app.ts'],
    message:
      'A module never imports the composition root or the app; take what it needs as a constructor argument.',
  },
];

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      'data/**',
      'coverage/**',
      'test-results/**',
      'playwright-report/**',
      '.test-artifacts/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.strictTypeChecked,
  ...tseslint.configs.stylisticTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['apps/*/src/**/*.{ts,tsx}'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.tsx', '.js'] })],
    },
    rules: {
      'import-x/no-restricted-paths': [
        'error',
        { basePath: import.meta.dirname, zones: [...boundaryZones, ...layerZones] },
      ],
    },
  },
  {
    // No import circles, type-only imports aside (they leave no trace in the built code).
    files: ['apps/web/src/**/*.{ts,tsx}', 'packages/contracts/src/**/*.ts', 'apps/api/src/**/*.ts'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.tsx', '.js'] })],
      // The rule follows the imports of the files it parses, which are .js alone by default.
      'import-x/extensions': ['.ts', '.tsx', '.js'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
    },
    rules: { 'import-x/no-cycle': ['error', { ignoreExternal: true }] },
  },
  {
    files: ['apps/*/src/**/*.test.{ts,tsx}'],
    rules: {
      'import-x/no-restricted-paths': [
        'error',
        { basePath: import.meta.dirname, zones: boundaryZones },
      ],
    },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules,
    languageOptions: { globals: globals.browser },
  },
  {
    files: ['**/*.{js,mjs}'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: {
      ...tseslint.configs.disableTypeChecked.languageOptions,
      globals: globals.node,
    },
  },
);
