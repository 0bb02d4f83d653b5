// `npm test`: the gates (ESLint with the layer rules, Prettier, typecheck), the site's build (its
// log held free of warnings), then every Vitest project (unit + browser) with the coverage thresholds
// of vitest.config.ts. Ends with one line "N passed, N failed" that counts every test and every gate,
// the line CI reads.
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';

/**
 * Runs a command with its output passed through line by line (so that two commands running at
 * once never split each other's lines) and kept, to read verdicts from; resolves with its status
 * and output.
 */
function run(cmd, args) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'], shell: false });
    let output = '';
    const passLines = (stream) => {
      let pending = '';
      child[stream].on('data', (chunk) => {
        output += chunk;
        const lines = (pending + chunk).split('\n');
        pending = lines.pop() ?? '';
        if (lines.length > 0) process[stream].write(lines.join('\n') + '\n');
      });
      child[stream].on('end', () => {
        if (pending) process[stream].write(pending + '\n');
      });
    };
    passLines('stdout');
    passLines('stderr');
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

const build = await run('npm', ['run', '--silent', 'build']);
if (build.status !== 0) {
  gate('build', false, 'the site did not build, so no test ran');
  finish();
}
// A build that always warns teaches a newcomer to skip its warnings, so the log stays clean: a
// harmless warning is silenced where it arises, with the reason (astro.config.mjs).
const buildWarnings = build.output.split('\n').filter((line) => /\[(WARN|ERROR)\]/.test(line));
gate('build log without warnings', buildWarnings.length === 0, buildWarnings.join('; '));

// Coverage floors hold for the whole suite; a run narrowed by arguments (`npm test -- tests/unit/lab`) skips them.
const filters = process.argv.slice(2);
const coverage = filters.length === 0;
if (!coverage) console.log('coverage thresholds not checked: the run is narrowed by arguments');

mkdirSync('test-results', { recursive: true });
// The two projects run as two Vitest processes at once: within one process Vitest runs a project
// without file parallelism (e2e: one Chromium at a time) in a group of its own, after or before
// every other project, never beside it. The unit tests take the second core while Chromium waits
// on pages. Coverage is the unit project's: the browser project's Node side adds no line to it.
const projects = [
  { name: 'unit', coverage },
  { name: 'e2e', coverage: false },
];
const runs = await Promise.all(
  projects.map(async (project) => {
    const report = `test-results/vitest-${project.name}.json`;
    rmSync(report, { force: true });
    const result = await run('npx', [
      'vitest',
      'run',
      '--project',
      project.name,
      ...(project.coverage ? ['--coverage'] : []),
      '--reporter=default',
      '--reporter=json',
      `--outputFile.json=${report}`,
      // A narrowed run may match files of one project only.
      ...(filters.length > 0 ? ['--passWithNoTests'] : []),
      ...filters,
    ]);
    return { ...project, ...result, report };
  }),
);

let ran = 0;
for (const { name, coverage: withCoverage, status, output, report } of runs) {
  try {
    const results = JSON.parse(readFileSync(report, 'utf8'));
    passed += results.numPassedTests;
    failed += results.numFailedTests;
    ran += results.numTotalTests;
    // Vitest reports an unmet threshold as "ERROR: Coverage for lines (…) does not meet … threshold (…)".
    const unmet = output.split('\n').filter((line) => /Coverage for .* does not meet/.test(line));
    if (withCoverage) gate('coverage thresholds (vitest.config.ts)', unmet.length === 0, unmet.join('; '));
    if (status !== 0 && results.numFailedTests === 0 && unmet.length === 0)
      gate(`vitest run (${name})`, false, `exited with status ${status}`);
  } catch {
    gate(`vitest run (${name})`, false, `no report at ${report}`);
  }
}
if (ran === 0) gate('vitest run', false, `no test matched ${filters.join(' ')}`);
finish();
