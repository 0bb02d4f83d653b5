// ESLint: the layer rules of ARCHITECTURE.md as `no-restricted-imports`, and typescript-eslint's
// recommended rules everywhere. Flat config replaces a rule's options wholesale for files that a later block matches,
// so every block repeats the rules it must keep (NO_TESTS above all).
import tseslint from 'typescript-eslint';

/** An import whose path names one of these top-level folders of src/. */
const folder = (...names) => `(^|/)(${names.join('|')})(/|$)`;

/** Any module of src/graphs other than its browser-safe part (browser-safe.ts). */
const GRAPHS_BEYOND_BROWSER_SAFE = {
  regex: '(^|/)graphs/(?!browser-safe(\\.ts)?$)',
  message:
    'Import src/graphs only through its browser-safe part, graphs/browser-safe.ts (the builder and onnx-proto stay at build time).',
};

/** The product never reaches into tests: what a page or a command ships lives under src/. */
const NO_TESTS = {
  regex: '(^|/)tests/',
  message: 'Nothing outside tests/ imports tests/: move what the product or a script needs out of tests/.',
};

export default tseslint.config(
  { ignores: ['dist/', 'public/', '.astro/', 'node_modules/', 'coverage/', 'test-results/'] },
  {
    files: ['**/*.{ts,tsx,js,mjs}'],
    languageOptions: { parser: tseslint.parser },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
  },
  {
    // The rule for every file no later block narrows (src/markdown, the content config, the Astro config), and for
    // scripts: build scripts and benchmarks may run anything under src/ and the browser harness of scripts/browser,
    // which the browser tests import too; the tests import scripts, never the other way round.
    files: ['src/**/*.{ts,tsx}', 'scripts/**/*.{ts,mjs}', 'astro.config.mjs'],
    rules: { 'no-restricted-imports': ['error', { patterns: [NO_TESTS] }] },
  },
  {
    // The bottom layer (the lesson registry, byte units): every other layer may import it, so it imports nothing.
    files: ['src/base/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ regex: '^(?!\\./)', message: 'src/base is the bottom layer: it imports nothing but its own files.' }] },
      ],
    },
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
              message: 'src/memory imports nothing outside src/memory and src/base.',
            },
            NO_TESTS,
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
              message: 'src/diagnose imports nothing outside src/diagnose and src/base.',
            },
            NO_TESTS,
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
            NO_TESTS,
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
            NO_TESTS,
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
            NO_TESTS,
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
              message: 'src/planner imports only src/memory and src/base.',
            },
            NO_TESTS,
          ],
        },
      ],
    },
  },
  {
    files: ['src/components/**/*.{ts,tsx}'],
    rules: { 'no-restricted-imports': ['error', { patterns: [GRAPHS_BEYOND_BROWSER_SAFE, NO_TESTS] }] },
  },
  {
    // The terminal front ends run the pure layers; the site's islands, the browser lab and the model builder are not theirs.
    files: ['src/cli/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: folder('components', 'lab', 'graphs', 'markdown', 'styles'),
              message: 'src/cli imports only src/memory, src/planner, src/diagnose and src/base (and Node built-ins).',
            },
            NO_TESTS,
          ],
        },
      ],
    },
  },
  {
    // The model builder runs at build time on packages (onnx-proto, onnxruntime-web); the lab and the pages call it.
    files: ['src/graphs/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: folder('components', 'lab', 'cli', 'memory', 'planner', 'diagnose', 'markdown', 'styles'),
              message: 'src/graphs builds models from packages alone: it imports no other layer of src/ but src/base.',
            },
            NO_TESTS,
          ],
        },
      ],
    },
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
