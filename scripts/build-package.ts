// `npm run package` (and npm's `prepack`, so `npm pack` and `npm publish` always ship a fresh build): compiles the
// terminal commands and the library into lib/, the one folder the package ships (package.json `files`): plain
// JavaScript for Node 20 with no dependency (esbuild bundles src/ into two entries that share one chunk), declarations
// for the library (tsc), and the JSON Schemas the site serves from public/schemas/.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';

const root = join(import.meta.dirname, '..');
const out = join(root, 'lib');

rmSync(out, { recursive: true, force: true });
await build({
  absWorkingDir: root,
  entryPoints: { cli: 'src/cli/main.ts', index: 'src/cli/index.ts' },
  outdir: out,
  bundle: true,
  splitting: true,
  chunkNames: 'chunks/[name]-[hash]',
  format: 'esm',
  platform: 'node',
  // The package's `engines`: a user's Node, not the toolchain's pinned one.
  target: 'node20',
  // yaml's Node entry is CommonJS that requires 'process', which an ESM bundle cannot; its ESM build is the same parser.
  alias: { yaml: './node_modules/yaml/browser/index.js' },
  // Minified to stay under the package's 1.1 MB budget; keepNames keeps functions' and classes' names for a stack trace.
  minify: true,
  keepNames: true,
  logLevel: 'warning',
});

// Declarations only: the types of what index.ts exports, with the paths of src/ kept (lib/types/cli/index.d.ts).
const tsc = spawnSync(
  process.execPath,
  [
    join(root, 'node_modules/typescript/bin/tsc'),
    'src/cli/index.ts',
    '--declaration',
    '--emitDeclarationOnly',
    '--rewriteRelativeImportExtensions',
    '--allowImportingTsExtensions',
    '--strict',
    '--skipLibCheck',
    '--target',
    'es2022',
    '--module',
    'nodenext',
    '--types',
    'node',
    '--rootDir',
    'src',
    '--outDir',
    join(out, 'types'),
  ],
  { cwd: root, stdio: 'inherit' },
);
if (tsc.status !== 0) throw new Error(`tsc could not write the declarations (exit ${tsc.status})`);

// The schemas as compact JSON: the same documents the site serves, without their indentation (half their bytes), to
// stay under the package's 1.1 MB budget.
mkdirSync(join(out, 'schemas'));
for (const name of readdirSync(join(root, 'public/schemas'))) {
  const text = readFileSync(join(root, 'public/schemas', name), 'utf8');
  writeFileSync(join(out, 'schemas', name), name.endsWith('.json') ? JSON.stringify(JSON.parse(text)) : text);
}
