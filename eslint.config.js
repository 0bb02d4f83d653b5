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

/** The folders of src/: the layers, and the site's own markdown plugins, styles and pages. */
const SRC_FOLDERS = [
  'base',
  'memory',
  'planner',
  'diagnose',
  'setup',
  'lab',
  'graphs',
  'components',
  'cli',
  'markdown',
  'styles',
  'pages',
  'i18n',
];

/**
 * The import rules of the layer in src/`layer`: its own files and the folders of src/ in `may`, none of the others,
 * never tests/; with `packages: false` no package or Node built-in either; `also` adds patterns of its own.
 */
const layerRules = (layer, { may = [], packages = true, also = [] } = {}) => ({
  'no-restricted-imports': [
    'error',
    {
      patterns: [
        ...(packages ? [] : [{ regex: '^[^.]', message: `src/${layer} is pure: no packages, no Node built-ins.` }]),
        {
          regex: folder(...SRC_FOLDERS.filter((name) => name !== layer && !may.includes(name))),
          message: `src/${layer} imports only ${[layer, ...may].map((name) => `src/${name}`).join(', ')}.`,
        },
        ...also,
        NO_TESTS,
      ],
    },
  ],
});

/** The import rules of a folder of src/lab: the lab's (memory, base and graphs/browser-safe.ts beside itself), plus `within`. */
const labRules = (...within) =>
  layerRules('lab', { may: ['memory', 'base', 'graphs'], also: [GRAPHS_BEYOND_BROWSER_SAFE, ...within] });

export default tseslint.config(
  { ignores: ['dist/', 'public/', '.astro/', 'node_modules/', 'coverage/', 'test-results/', 'lib/'] },
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
  { files: ['src/memory/**/*.{ts,tsx}'], rules: layerRules('memory', { may: ['base'], packages: false }) },
  { files: ['src/diagnose/**/*.{ts,tsx}'], rules: layerRules('diagnose', { may: ['base'], packages: false }) },
  // src/lab: its folders depend one way, experiments → worker → page → results → measure (ARCHITECTURE.md § Inside src/lab).
  { files: ['src/lab/**/*.{ts,tsx}'], rules: labRules() },
  {
    files: ['src/lab/worker/**/*.ts'],
    rules: labRules({
      regex: folder('experiments'),
      message: 'The worker shell serves every experiment kind: it imports none of them.',
    }),
  },
  {
    files: ['src/lab/page/**/*.ts'],
    rules: labRules({
      regex: folder('experiments', 'worker'),
      message: "The page's loading and starting code serves every experiment and runs outside workers: it imports neither.",
    }),
  },
  {
    files: ['src/lab/results/**/*.ts'],
    rules: labRules({
      regex: folder('experiments', 'worker', 'page'),
      message: 'What a result means depends on the measurement alone: results imports only measure.',
    }),
  },
  {
    // The measuring core runs in Node tests as well as in workers: it may not reach for the worker shells.
    files: ['src/lab/measure/**/*.ts'],
    rules: labRules({
      regex: folder('worker', 'experiments', 'page', 'results'),
      message:
        'The measuring core is written against its executor interface: it imports no worker, experiment, page or results code.',
    }),
  },
  { files: ['src/planner/**/*.{ts,tsx}'], rules: layerRules('planner', { may: ['memory', 'base'], packages: false }) },
  // The site's languages and message catalogues: what islands and Astro components say, in each language. They name the
  // engine's moments and parts, so they read memory's types, and re-export or type themselves by the English words
  // objects of the pure layers that word their own results (diagnose's explanations, the lab's backend and settings
  // words, the planner's choices and reasons, the training-config reader's mapping); Preact gives islands the language,
  // unist the remark plugin.
  { files: ['src/i18n/**/*.ts'], rules: layerRules('i18n', { may: ['base', 'memory', 'diagnose', 'lab', 'planner', 'setup'] }) },
  {
    // The training-config readers and writers are pure too, but for the YAML parser: the files they read are YAML.
    files: ['src/setup/**/*.ts'],
    rules: layerRules('setup', {
      may: ['memory', 'base'],
      also: [{ regex: '^(?!\\.|yaml$)', message: 'src/setup is pure: its one package is yaml, and no Node built-in.' }],
    }),
  },
  {
    // Components call every layer but the terminal commands, and the model builder only through its browser-safe part.
    files: ['src/components/**/*.{ts,tsx}'],
    rules: layerRules('components', {
      may: ['base', 'memory', 'planner', 'diagnose', 'setup', 'lab', 'graphs', 'markdown', 'styles', 'i18n'],
      also: [GRAPHS_BEYOND_BROWSER_SAFE],
    }),
  },
  {
    // The terminal front ends run the pure layers; the site's islands, the browser lab and the model builder are not theirs.
    files: ['src/cli/**/*.ts'],
    rules: layerRules('cli', { may: ['memory', 'planner', 'diagnose', 'setup', 'base'] }),
  },
  {
    // The model builder runs at build time on packages (onnx-proto, onnxruntime-web); the lab and the pages call it.
    files: ['src/graphs/**/*.ts'],
    rules: layerRules('graphs', { may: ['base'] }),
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
