// ESLint: the layer rules of DESIGN.md as `no-restricted-imports`, and typescript-eslint's
// recommended rules everywhere.
import tseslint from 'typescript-eslint';

/** An import whose path names one of these top-level folders of src/. */
const folder = (...names) => `(^|/)(${names.join('|')})(/|$)`;

/** Any module of src/graphs other than its browser-safe part (browser-safe.ts). */
const GRAPHS_BEYOND_BROWSER_SAFE = {
  regex: '(^|/)graphs/(?!browser-safe(\\.ts)?$)',
  message:
    'Import src/graphs only through its browser-safe part, graphs/browser-safe.ts (the builder and onnx-proto stay at build time).',
};

export default tseslint.config(
  { ignores: ['dist/', 'public/', '.astro/', 'node_modules/', 'coverage/', 'test-results/'] },
  {
    files: ['**/*.{ts,tsx,js,mjs}'],
    languageOptions: { parser: tseslint.parser },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
  },
  {
    files: ['src/memory/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { regex: '^[^.]', message: 'src/memory has no dependencies: no packages, no Node built-ins.' },
            {
              regex: folder('lab', 'graphs', 'components', 'diagnose', 'cli', 'markdown', 'styles'),
              message: 'src/memory imports nothing outside src/memory.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/diagnose/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { regex: '^[^.]', message: 'src/diagnose is pure: no packages, no Node built-ins.' },
            {
              regex: folder('lab', 'graphs', 'components', 'memory', 'cli', 'markdown', 'styles'),
              message: 'src/diagnose imports nothing outside src/diagnose.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/lab/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: folder('components'),
              message: 'src/lab never imports components: components call the lab, not the other way.',
            },
            GRAPHS_BEYOND_BROWSER_SAFE,
          ],
        },
      ],
    },
  },
  {
    // The measuring core runs in Node tests as well as in workers: it may not reach for the worker shells.
    files: ['src/lab/measure/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { regex: folder('components'), message: 'src/lab never imports components.' },
            GRAPHS_BEYOND_BROWSER_SAFE,
            {
              regex: folder('worker', 'experiments', 'page', 'results'),
              message:
                'The measuring core is written against its executor interface: it imports no worker, experiment, page or results code.',
            },
          ],
        },
      ],
    },
  },
  {
    // Dependencies run one way: each experiment kind's runner and worker use the worker shell, never the reverse.
    files: ['src/lab/worker/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { regex: folder('components'), message: 'src/lab never imports components.' },
            GRAPHS_BEYOND_BROWSER_SAFE,
            { regex: folder('experiments'), message: 'The worker shell serves every experiment kind: it imports none of them.' },
          ],
        },
      ],
    },
  },
  {
    files: ['src/planner/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { regex: '^[^.]', message: 'src/planner is pure: no packages, no Node built-ins.' },
            {
              regex: folder('lab', 'graphs', 'components', 'diagnose', 'cli', 'markdown', 'styles'),
              message: 'src/planner imports only src/memory.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/components/**/*.{ts,tsx}'],
    rules: { 'no-restricted-imports': ['error', { patterns: [GRAPHS_BEYOND_BROWSER_SAFE] }] },
  },
  {
    files: ['src/**/*.{ts,tsx}', 'tests/**/*.ts', 'scripts/**/*.{ts,mjs}'],
    extends: [tseslint.configs.recommended],
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' },
      ],
      '@typescript-eslint/no-non-null-assertion': 'off',
    },
  },
);
