// `npm test`: the gates (ESLint with the layer rules, Prettier, typecheck), the site's build, then
// every Vitest project (unit + browser) with the coverage thresholds of vitest.config.ts. Ends
// with one line "N passed, N failed" that counts every test and every gate, the line CI reads.
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';

/** Runs a command with its output passed through (and kept, to read verdicts from); resolves with its status and output. */
function run(cmd, args) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'], shell: false });
    let output = '';
    child.stdout.on('data', (chunk) => {
      process.stdout.write(chunk);
      output += chunk;
    });
    child.stderr.on('data', (chunk) => {
      process.stderr.write(chunk);
      output += chunk;
    });
    child.on('close', (status) => resolve({ status: status ?? 1, output }));
  });
}

let passed = 0;
let failed = 0;
/** Counts a gate as one test and says how it went. */
function gate(name, ok, why = '') {
  if (ok) passed += 1;
  else failed += 1;
  console.log(`gate ${ok ? 'passed' : 'FAILED'}: ${name}${why ? ` — ${why}` : ''}`);
}
function finish() {
  console.log(`${passed} passed, ${failed} failed`);
  process.exit(failed === 0 ? 0 : 1);
}

const gates = [
  ['ESLint (layer rules)', 'npx', ['eslint', '.']],
  ['Prettier', 'npx', ['prettier', '--check', '.']],
  ['typecheck', 'npm', ['run', '--silent', 'typecheck']],
];
for (const [name, cmd, args] of gates) gate(name, (await run(cmd, args)).status === 0);

if ((await run('npm', ['run', '--silent', 'build'])).status !== 0) {
  gate('build', false, 'the site did not build, so no test ran');
  finish();
}

// Coverage floors hold for the whole suite; a run narrowed by arguments (`npm test -- tests/unit/lab`) skips them.
const filters = process.argv.slice(2);
const coverage = filters.length === 0;
if (!coverage) console.log('coverage thresholds not checked: the run is narrowed by arguments');

mkdirSync('test-results', { recursive: true });
const report = 'test-results/vitest.json';
const vitest = await run('npx', [
  'vitest',
  'run',
  ...(coverage ? ['--coverage'] : []),
  '--reporter=default',
  '--reporter=json',
  `--outputFile.json=${report}`,
  ...filters,
]);

try {
  const results = JSON.parse(readFileSync(report, 'utf8'));
  passed += results.numPassedTests;
  failed += results.numFailedTests;
  // Vitest reports an unmet threshold as "ERROR: Coverage for lines (…) does not meet … threshold (…)".
  const unmet = vitest.output.split('\n').filter((line) => /Coverage for .* does not meet/.test(line));
  if (coverage) gate('coverage thresholds (vitest.config.ts)', unmet.length === 0, unmet.join('; '));
  if (vitest.status !== 0 && results.numFailedTests === 0 && unmet.length === 0)
    gate('vitest run', false, `exited with status ${vitest.status}`);
} catch {
  gate('vitest run', false, `no report at ${report}`);
}
finish();
